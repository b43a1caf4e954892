qwirkle-profile 1
name cards
letters ROYGBP CXDSTL
pieces cards
conf_floor 0.5
max_dist 8
colour R mean 0.835 0.015 spread 0.1307 0.0637
colour O mean 0.810 0.328 spread 0.1350 0.0832
colour Y mean 0.552 0.639 spread 0.1067 0.1252
colour G mean -0.329 0.592 spread 0.1552 0.1775
colour B mean -0.663 -0.418 spread 0.1555 0.1361
colour P mean 0.199 -0.585 spread 0.1735 0.2193
shape C mean 1.0169 -0.0023 0.0028 0.9006 spread 0.0300 0.0300 0.0200 0.0500
shape X mean 0.5540 -0.4736 0.1628 0.2957 spread 0.0311 0.0300 0.0200 0.0500
shape D mean 1.0079 0.1451 0.0430 0.7507 spread 0.0300 0.0300 0.0200 0.0500
shape S mean 1.0446 -0.1465 0.0396 0.8435 spread 0.0300 0.0300 0.0200 0.0500
shape T mean 0.7245 -0.0037 0.2173 0.3694 spread 0.0300 0.0300 0.0200 0.0500
shape L mean 0.9760 0.1224 0.0323 0.7729 spread 0.0300 0.0300 0.0200 0.0500
