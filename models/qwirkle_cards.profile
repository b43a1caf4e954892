# Qwirkle Cards (seed 002), the default Qwirkle profile. No photographs of the
# cards exist: fitted on rendered scenes (tuning seeds, never the ones the
# floors are reported on), each piece the card finder found labelled by the
# render's JSON, so blurred and foreshortened cards are in it:
#   build/tablesight render --game qwirkle --seed 20300 --count 150 OUT
#   build/ts-qwirkle dump OUT/labels.tsv > feats.tsv
#   /usr/bin/python3 models/fit_qwirkle.py --render-labels --modes 2 \
#       --profile models/qwirkle_cards.profile --labels OUT/labels.tsv feats.tsv
# Colour is measured after white-balancing on the card's own white border.
qwirkle-profile 1
name cards
letters ROYGBP CXDSTL
pieces cards
conf_floor 0.5
max_dist 8
outlier 9
colour R mean 0.781 -0.019 spread 0.0798 0.0965
colour R mean 0.887 0.017 spread 0.0702 0.1610
colour O mean 0.763 0.325 spread 0.0712 0.0767
colour O mean 0.870 0.383 spread 0.0615 0.0866
colour Y mean 0.485 0.611 spread 0.0596 0.0952
colour Y mean 0.575 0.738 spread 0.0592 0.0910
colour G mean -0.343 0.525 spread 0.1010 0.0898
colour G mean -0.412 0.678 spread 0.1821 0.1130
colour B mean -0.739 -0.468 spread 0.0832 0.0725
colour B mean -0.636 -0.431 spread 0.0617 0.1003
colour P mean 0.137 -0.698 spread 0.0805 0.1050
colour P mean 0.162 -0.552 spread 0.0992 0.0934
shape C mean 1.0305 -0.0030 0.0038 0.9203 spread 0.0300 0.0300 0.0200 0.0500
shape C mean 1.0383 -0.0044 0.0040 0.9457 spread 0.0300 0.0300 0.0200 0.0500
shape X mean 0.5664 -0.4556 0.1667 0.3022 spread 0.0300 0.0300 0.0200 0.0500
shape X mean 0.6277 -0.4347 0.1474 0.3479 spread 0.0755 0.0300 0.0292 0.0605
shape D mean 1.0238 0.1400 0.0418 0.7935 spread 0.0300 0.0300 0.0200 0.0500
shape D mean 1.0388 0.1368 0.0376 0.8413 spread 0.0300 0.0300 0.0200 0.0500
shape S mean 1.0328 -0.1439 0.0399 0.8065 spread 0.0300 0.0300 0.0200 0.0500
shape S mean 1.0534 -0.1427 0.0401 0.8539 spread 0.0300 0.0300 0.0200 0.0500
shape T mean 0.6988 -0.0035 0.2379 0.3148 spread 0.0707 0.0300 0.0427 0.0803
shape T mean 0.6571 -0.0027 0.2747 0.2729 spread 0.0300 0.0300 0.0200 0.0500
shape L mean 0.8951 0.2558 0.0793 0.4675 spread 0.0300 0.0300 0.0200 0.0563
shape L mean 0.9173 0.2265 0.0624 0.5700 spread 0.0300 0.0300 0.0200 0.0971
