# SeeCards deck of seed 000 (思卡): hexagon/leaf/snake, red/green/blue,
# solid/striped/dotted outline. No photographs of this deck exist: the prototypes
# are trained on RENDERED cards only (synthetic, not yet checked on real ones):
#   tablesight render --game set --profile seecards --seed 1000 --count 200 --random 15 --layout grid --crops DIR
#   ts-train-profile seecards DIR/labels.tsv --fold 0/2 --modes 2
# Held-out rendered cards read: 95.8% (1,500 cards).
profile 1
name seecards
family set
letters 123 RGB HLS STD
conf_floor 0.50
min_chroma 0.015
scale colour 0.0362 0.0254
proto colour R 0.1088 0.4490
spread colour R 0.0354 0.0231
proto colour R 0.0460 0.4896
spread colour R 0.0307 0.0223
proto colour G 0.4413 0.1857
spread colour G 0.0299 0.0250
proto colour B 0.4823 0.3699
spread colour B 0.0300 0.0230
proto colour B 0.5424 0.3593
spread colour B 0.0336 0.0238
scale shape 0.0296 0.0376
proto shape H 0.7683 0.9742
spread shape H 0.0254 0.0308
proto shape L 0.6729 0.9770
spread shape L 0.0218 0.0276
proto shape L 0.6241 0.8841
spread shape L 0.0263 0.0436
proto shape S 0.6556 0.7903
spread shape S 0.0232 0.0287
proto shape S 0.5959 0.7306
spread shape S 0.0286 0.0337
scale shading 0.0777 0.0494 0.0285
proto shading S 0.9662 0.0288 0.0238
spread shading S 0.0569 0.0372 0.0220
proto shading S 0.7523 0.1576 0.0292
spread shading S 0.0880 0.0419 0.0213
proto shading T 0.3599 0.2010 0.0696
spread shading T 0.0718 0.0466 0.0237
proto shading T 0.5153 0.2188 0.0755
spread shading T 0.0692 0.0393 0.0225
proto shading D 0.1239 0.2566 0.1164
spread shading D 0.0733 0.0627 0.0375
