# Classic SET deck: diamond/oval/squiggle, red/green/purple, solid/striped/open.
# Prototypes trained by: ts-train-profile classic ../shared/data/set/crops.tsv --fold 0/2
# (odd lines of crops.tsv trained on, even lines held out for evaluation).
profile 1
name classic
family set
letters 123 RGP DOS STO
conf_floor 0.50
scale colour 0.0447 0.0525
proto colour R 0.0331 0.4902
proto colour G 0.4684 0.1799
proto colour P 0.3140 0.4596
spread colour R 0.0430 0.0432
spread colour G 0.0538 0.0534
spread colour P 0.0354 0.0598
scale shape 0.0188 0.0203
proto shape D 0.6152 0.9698
proto shape O 0.8836 0.9876
proto shape S 0.7600 0.8549
spread shape D 0.0139 0.0148
spread shape O 0.0259 0.0283
spread shape S 0.0139 0.0149
scale shading 0.0488 0.0388 0.0475
proto shading S 0.9798 0.0190 0.0085
proto shading T 0.2320 0.1149 0.1320
proto shading O 0.0505 0.1345 0.0517
spread shading S 0.0421 0.0316 0.0338
spread shading T 0.0603 0.0397 0.0665
spread shading O 0.0419 0.0441 0.0348
