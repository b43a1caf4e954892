qwirkle-profile 1
name cards
letters ROYGBP CXDSTL
pieces cards
conf_floor 0.5
max_dist 8
colour R mean 0.782 0.021 spread 0.1052 0.0483
colour R mean 0.895 0.010 spread 0.0572 0.0754
colour O mean 0.756 0.315 spread 0.0638 0.0756
colour O mean 0.888 0.344 spread 0.0758 0.1112
colour Y mean 0.506 0.603 spread 0.0674 0.0523
colour Y mean 0.601 0.726 spread 0.0942 0.0957
colour G mean -0.292 0.509 spread 0.1163 0.0747
colour G mean -0.380 0.651 spread 0.1861 0.0934
colour B mean -0.735 -0.444 spread 0.0937 0.1102
colour B mean -0.592 -0.385 spread 0.0827 0.1001
colour P mean 0.126 -0.608 spread 0.0883 0.1635
colour P mean 0.281 -0.552 spread 0.1334 0.2218
shape C mean 1.0157 -0.0024 0.0023 0.8938 spread 0.0300 0.0300 0.0200 0.0500
shape C mean 1.0184 -0.0017 0.0029 0.9130 spread 0.0300 0.0300 0.0200 0.0500
shape X mean 0.5463 -0.4786 0.1663 0.2903 spread 0.0300 0.0300 0.0200 0.0500
shape X mean 0.5673 -0.4675 0.1577 0.3034 spread 0.0468 0.0300 0.0200 0.0500
shape D mean 1.0032 0.1450 0.0441 0.7398 spread 0.0300 0.0300 0.0200 0.0500
shape D mean 1.0114 0.1454 0.0416 0.7576 spread 0.0300 0.0300 0.0200 0.0500
shape S mean 1.0359 -0.1457 0.0398 0.8281 spread 0.0300 0.0300 0.0200 0.0500
shape S mean 1.0460 -0.1472 0.0391 0.8520 spread 0.0300 0.0300 0.0200 0.0500
shape T mean 0.6334 -0.0009 0.2841 0.2586 spread 0.0300 0.0300 0.0200 0.0500
shape T mean 0.6719 0.0009 0.2672 0.2949 spread 0.0493 0.0300 0.0280 0.0533
shape L mean 0.8787 0.2442 0.0803 0.4203 spread 0.0300 0.0300 0.0200 0.0574
shape L mean 0.9005 0.2209 0.0673 0.5563 spread 0.0300 0.0300 0.0200 0.0500
