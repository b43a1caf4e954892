# Classic SET deck: diamond/oval/squiggle, red/green/purple, solid/striped/open.
# Trained by: ts-train-profile classic ../shared/data/set/crops.tsv --fold 0/2 --modes 3
# (odd lines of crops.tsv trained on; even lines held out for evaluation).
profile 1
name classic
family set
letters 123 RGP DOS STO
conf_floor 0.50
min_chroma 0.015
scale colour 0.0447 0.0526
proto colour R 0.0049 0.5084
spread colour R 0.0322 0.0409
proto colour R 0.1133 0.4482
spread colour R 0.0359 0.0386
proto colour R 0.0572 0.4696
spread colour R 0.0337 0.0383
proto colour G 0.4885 0.1495
spread colour G 0.0345 0.0425
proto colour G 0.5579 0.1151
spread colour G 0.0371 0.0399
proto colour G 0.4184 0.2246
spread colour G 0.0365 0.0422
proto colour P 0.3285 0.4087
spread colour P 0.0326 0.0418
proto colour P 0.2799 0.5578
spread colour P 0.0338 0.0398
proto colour P 0.3019 0.5144
spread colour P 0.0330 0.0394
scale shape 0.0188 0.0203
proto shape D 0.6121 0.9704
spread shape D 0.0138 0.0148
proto shape D 0.6218 0.9688
spread shape D 0.0138 0.0148
proto shape O 0.8902 0.9913
spread shape O 0.0138 0.0148
proto shape O 0.8797 0.9869
spread shape O 0.0138 0.0148
proto shape S 0.7612 0.8561
spread shape S 0.0138 0.0148
proto shape S 0.7545 0.8500
spread shape S 0.0138 0.0148
proto shape S 0.7694 0.8621
spread shape S 0.0138 0.0148
scale shading 0.0489 0.0388 0.0475
proto shading S 0.9851 0.0153 0.0079
spread shading S 0.0356 0.0281 0.0338
proto shading S 0.8767 0.0986 0.0217
spread shading S 0.0469 0.0341 0.0341
proto shading T 0.3383 0.1303 0.0668
spread shading T 0.0615 0.0385 0.0392
proto shading T 0.2063 0.0817 0.0845
spread shading T 0.0455 0.0315 0.0435
proto shading T 0.2058 0.1487 0.2286
spread shading T 0.0406 0.0323 0.0441
proto shading O 0.0594 0.1490 0.0563
spread shading O 0.0366 0.0307 0.0344
proto shading O 0.1134 0.2317 0.0659
spread shading O 0.0430 0.0389 0.0341
proto shading O 0.0259 0.0956 0.0438
spread shading O 0.0356 0.0299 0.0345
