qwirkle-profile 1
name cards
letters ROYGBP CXDSTL
pieces cards
conf_floor 0.5
max_dist 8
outlier 9
colour R mean 0.764 0.010 spread 0.1186 0.0572
colour R mean 0.887 0.003 spread 0.0664 0.0904
colour O mean 0.747 0.313 spread 0.0754 0.0567
colour O mean 0.887 0.368 spread 0.0751 0.0847
colour Y mean 0.471 0.612 spread 0.0469 0.0643
colour Y mean 0.589 0.748 spread 0.0664 0.0782
colour G mean -0.301 0.490 spread 0.1219 0.0503
colour G mean -0.397 0.636 spread 0.1392 0.1156
colour B mean -0.731 -0.465 spread 0.0805 0.1093
colour B mean -0.603 -0.430 spread 0.0814 0.0894
colour P mean 0.167 -0.703 spread 0.0898 0.0892
colour P mean 0.156 -0.556 spread 0.1002 0.1000
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
