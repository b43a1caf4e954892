# SeeCards deck of seed 000 (思卡): hexagon/leaf/snake, red/green/blue,
# solid/striped/dotted outline. No photographs of this deck exist in the
# project's data: these prototypes are first estimates from the card design
# (shape geometry, ink hues) until rebuilt from rendered cards with
# ts-train-profile (see models/README.md).
profile 1
name seecards
family set
letters 123 RGB HLS STD
conf_floor 0.5
min_chroma 0.015
scale colour 0.05 0.05
proto colour R 0.03 0.48
proto colour G 0.47 0.18
proto colour B 0.48 0.42
scale shape 0.03 0.03
proto shape H 0.76 0.99
proto shape L 0.66 0.98
proto shape S 0.74 0.85
scale shading 0.05 0.04 0.05
proto shading S 0.98 0.02 0.01
proto shading T 0.25 0.10 0.12
proto shading D 0.02 0.05 0.02
