qwirkle-profile 1
name cards
letters ROYGBP CXDSTL
pieces cards
conf_floor 0.5
max_dist 50
colour R mean 0.800 0.000 spread 0.06 0.06
colour O mean 0.808 0.263 spread 0.06 0.06
colour Y mean 0.523 0.670 spread 0.06 0.06
colour G mean -0.459 0.655 spread 0.06 0.06
colour B mean -0.736 -0.425 spread 0.06 0.06
colour P mean 0.300 -0.520 spread 0.06 0.06
shape C mean 0.99 0.00 0.00 0.85 spread 0.05 0.05 0.05 0.1
shape X mean 0.45 -0.15 0.05 0.30 spread 0.05 0.05 0.05 0.1
shape D mean 0.97 0.10 0.03 0.70 spread 0.05 0.05 0.05 0.1
shape S mean 0.97 -0.08 0.02 0.75 spread 0.05 0.05 0.05 0.1
shape T mean 0.70 0.00 0.15 0.40 spread 0.05 0.05 0.05 0.1
shape L mean 0.85 0.10 0.03 0.60 spread 0.05 0.05 0.05 0.1
