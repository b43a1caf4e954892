# SeeCards deck of seed 000 (思卡): hexagon/leaf/snake, red/green/blue,
# solid/striped/dotted outline. No photographs of this deck exist: the prototypes
# are trained on RENDERED cards only (synthetic, not yet checked on real ones):
#   tablesight render --game set --profile seecards --seed 1000 --count 200 --random 15 --crops DIR
#   ts-train-profile seecards DIR/labels.tsv --fold 0/2 --modes 2
# Held-out rendered cards read: 93.6% (1,480 cards).
profile 1
name seecards
family set
letters 123 RGB HLS STD
conf_floor 0.50
min_chroma 0.015
scale colour 0.0295 0.0247
proto colour R 0.0978 0.4573
spread colour R 0.0258 0.0218
proto colour R 0.0507 0.4933
spread colour R 0.0258 0.0226
proto colour G 0.4259 0.1936
spread colour G 0.0254 0.0208
proto colour G 0.4627 0.1584
spread colour G 0.0257 0.0216
proto colour B 0.5224 0.3596
spread colour B 0.0266 0.0213
proto colour B 0.4858 0.3899
spread colour B 0.0258 0.0219
scale shape 0.0294 0.0392
proto shape H 0.7615 0.9802
spread shape H 0.0221 0.0322
proto shape L 0.6937 0.9807
spread shape L 0.0218 0.0297
proto shape S 0.7097 0.7908
spread shape S 0.0232 0.0303
scale shading 0.1022 0.0433 0.0316
proto shading S 0.9832 0.0275 0.0137
spread shading S 0.0725 0.0315 0.0226
proto shading S 0.9550 0.0642 0.0206
spread shading S 0.0736 0.0319 0.0226
proto shading T 0.4960 0.2635 0.1646
spread shading T 0.0987 0.0380 0.0390
proto shading T 0.6308 0.2328 0.0885
spread shading T 0.1128 0.0454 0.0285
proto shading D 0.3373 0.3800 0.0685
spread shading D 0.1003 0.0340 0.0243
proto shading D 0.1627 0.2919 0.0647
spread shading D 0.0804 0.0495 0.0245
