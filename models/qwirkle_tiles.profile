# Qwirkle tiles of ../shared/data/qwirkle (white where the cards have purple,
# printed W). Fitted on games tr1 and tr2 (42 photos, 2134 tiles); tr3 was
# held aside. Labels there are per photo (a multiset), so pieces were labelled
# by matching readings to the photo's labels (fit_qwirkle.py):
#   grep -v tr3_ ../shared/data/qwirkle/labels.tsv > dev.tsv   (paths made absolute)
#   build/ts-qwirkle dump --profile tiles dev.tsv > feats.tsv
#   /usr/bin/python3 models/fit_qwirkle.py --profile models/qwirkle_tiles.profile \
#       --labels dev.tsv feats.tsv
qwirkle-profile 1
name tiles
letters ROYGBW CXDSTL
pieces tiles
conf_floor 0.5
max_dist 8
colour R mean 0.799 -0.051 spread 0.1063 0.0400
colour O mean 0.809 0.198 spread 0.0520 0.0409
colour Y mean 0.514 0.736 spread 0.0400 0.0400
colour G mean -0.621 0.670 spread 0.0707 0.0540
colour B mean -0.779 -0.469 spread 0.0400 0.0400
colour W mean -0.046 -0.003 spread 0.0400 0.0400
shape C mean 1.0138 -0.0017 0.0031 0.9196 spread 0.0300 0.0300 0.0200 0.0500
shape X mean 0.5821 -0.4514 0.1469 0.3234 spread 0.0300 0.0300 0.0200 0.0500
shape D mean 1.0110 0.1341 0.0309 0.8264 spread 0.0300 0.0300 0.0200 0.0500
shape S mean 1.0220 -0.1470 0.0411 0.8188 spread 0.0300 0.0300 0.0200 0.0500
shape T mean 0.6216 -0.0019 0.2975 0.2507 spread 0.0674 0.0300 0.0489 0.0629
shape L mean 0.8449 0.2612 0.1075 0.5257 spread 0.0300 0.0322 0.0200 0.0596
