qwirkle-profile 1
name tiles
letters ROYGBW CXDSTL
pieces tiles
conf_floor 0.5
max_dist 8
colour R mean 0.798 -0.051 spread 0.1070 0.0400
colour O mean 0.809 0.198 spread 0.0520 0.0409
colour Y mean 0.514 0.736 spread 0.0400 0.0400
colour G mean -0.621 0.670 spread 0.0703 0.0547
colour B mean -0.779 -0.469 spread 0.0400 0.0400
colour W mean -0.046 -0.003 spread 0.0400 0.0400
shape C mean 1.0137 -0.0016 0.0027 0.9185 spread 0.0300 0.0300 0.0200 0.0500
shape X mean 0.5804 -0.4533 0.1481 0.3213 spread 0.0300 0.0300 0.0200 0.0500
shape D mean 1.0098 0.1352 0.0320 0.8213 spread 0.0300 0.0300 0.0200 0.0500
shape S mean 1.0212 -0.1472 0.0409 0.8145 spread 0.0300 0.0300 0.0200 0.0500
shape T mean 0.6186 -0.0020 0.2985 0.2485 spread 0.0712 0.0300 0.0480 0.0649
shape L mean 0.8440 0.2610 0.1076 0.5211 spread 0.0300 0.0327 0.0200 0.0594
