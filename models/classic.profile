# Classic SET deck: diamond/oval/squiggle, red/green/purple, solid/striped/open.
# Prototypes trained by: ts-train-profile classic ../shared/data/set/crops.tsv --fold 0/2
# (odd lines of crops.tsv trained on, even lines held out for evaluation).
profile 1
name classic
family set
letters 123 RGP DOS STO
conf_floor 0.25
scale colour 0.0449 0.0526
proto colour R 0.0329 0.4903
proto colour G 0.4687 0.1799
proto colour P 0.3138 0.4600
scale shape 0.0195 0.0213
proto shape D 0.6149 0.9692
proto shape O 0.8832 0.9874
proto shape S 0.7603 0.8551
scale shading 0.0467 0.0364
proto shading S 0.9825 0.0158
proto shading T 0.2592 0.0885
proto shading O 0.0468 0.0481
