# Classic SET deck: diamond/oval/squiggle, red/green/purple, solid/striped/open.
# Prototypes trained by: ts-train-profile classic ../shared/data/set/crops.tsv --fold 0/2
# (odd lines of crops.tsv trained on, even lines held out for evaluation).
profile 1
name classic
family set
letters 123 RGP DOS STO
conf_floor 0.25
scale colour 0.0447 0.0525
proto colour R 0.0330 0.4902
proto colour G 0.4685 0.1798
proto colour P 0.3139 0.4597
spread colour R 0.0430 0.0432
spread colour G 0.0537 0.0534
spread colour P 0.0354 0.0598
scale shape 0.0189 0.0204
proto shape D 0.6153 0.9696
proto shape O 0.8837 0.9876
proto shape S 0.7603 0.8552
spread shape D 0.0140 0.0149
spread shape O 0.0260 0.0284
spread shape S 0.0140 0.0150
scale shading 0.0453 0.0369 0.0511
proto shading S 0.9816 0.0162 0.0069
proto shading T 0.2101 0.0920 0.1240
proto shading O 0.0270 0.0461 0.0239
spread shading S 0.0397 0.0303 0.0363
spread shading T 0.0560 0.0432 0.0717
spread shading O 0.0381 0.0362 0.0369
