# Qwirkle Cards (seed 002), the default Qwirkle profile. No photographs of the
# cards exist: fitted on rendered crops,
#   build/tablesight render --game qwirkle --seed 20000 --count 60 --crops OUT
#   build/ts-qwirkle dump --crops OUT/labels.tsv > feats.tsv
#   /usr/bin/python3 models/fit_qwirkle.py --per-piece --modes 2 \
#       --profile models/qwirkle_cards.profile --labels OUT/labels.tsv feats.tsv
# Colour is measured after white-balancing on the card's own white border.
qwirkle-profile 1
name cards
letters ROYGBP CXDSTL
pieces cards
conf_floor 0.5
max_dist 8
outlier 9
colour R mean 0.754 0.009 spread 0.1150 0.0687
colour R mean 0.885 0.003 spread 0.0676 0.0812
colour O mean 0.742 0.315 spread 0.0767 0.0589
colour O mean 0.886 0.364 spread 0.0766 0.0805
colour Y mean 0.468 0.611 spread 0.0469 0.0647
colour Y mean 0.589 0.752 spread 0.0669 0.0708
colour G mean -0.300 0.492 spread 0.1132 0.0467
colour G mean -0.396 0.633 spread 0.1315 0.1108
colour B mean -0.728 -0.466 spread 0.0833 0.0945
colour B mean -0.601 -0.429 spread 0.0769 0.0918
colour P mean 0.174 -0.702 spread 0.0887 0.0803
colour P mean 0.151 -0.559 spread 0.0925 0.0953
shape C mean 1.0334 -0.0026 0.0034 0.9360 spread 0.0300 0.0300 0.0200 0.0500
shape C mean 1.0396 -0.0055 0.0070 0.9559 spread 0.0300 0.0300 0.0200 0.0500
shape X mean 0.5600 -0.4636 0.1703 0.2967 spread 0.0300 0.0300 0.0200 0.0500
shape X mean 0.6000 -0.4533 0.1562 0.3289 spread 0.0445 0.0300 0.0238 0.0500
shape D mean 1.0404 0.1429 0.0435 0.8305 spread 0.0300 0.0300 0.0200 0.0500
shape D mean 1.0547 0.1407 0.0442 0.8639 spread 0.0300 0.0300 0.0200 0.0500
shape S mean 1.0691 -0.1473 0.0428 0.8585 spread 0.0300 0.0300 0.0200 0.0500
shape S mean 1.0698 -0.1459 0.0415 0.8747 spread 0.0300 0.0300 0.0200 0.0500
shape T mean 0.6817 0.0013 0.2627 0.3014 spread 0.0539 0.0300 0.0200 0.0603
shape T mean 0.6506 -0.0022 0.2819 0.2703 spread 0.0300 0.0300 0.0200 0.0500
shape L mean 0.8956 0.2624 0.0799 0.4712 spread 0.0300 0.0300 0.0200 0.0709
shape L mean 0.9205 0.2352 0.0641 0.5875 spread 0.0300 0.0300 0.0200 0.0649
