# e2e-timeout: 300
# e2e-needs: kiosk
# e2e-alone: a flick's momentum comes from the injected events' timing
# kiosk demo answers a touchscreen, a wheel knob, a key knob and a REL_DIAL dial created
# through uinput; each step waits for the menu to settle. Scene S1 geometry at 1024x768,
# offset 0: item k's row is centred at y = 384 + k*768/9 and x = 1024 - 230.4*cos(asin((y-384)/384)) - 97.28 - 16.
e2e_uinput_start
ui add touch ts 1024 768
ui add wheel wh
ui add keys kb
ui add dial dl
e2e_bg kiosk env KIOSK_DEBUG=1 kiosk demo --motion none
sleep $((5 * ${E2E_SLOW:-1}))
# Each step waits 2 s for the menu to settle (times E2E_SLOW: 6 s on arm64, where under a loaded
# host's TCG 2 s once left every step's selection one step behind).
step() { echo "$*" >> /results/steps.txt; ui "$@"; sleep $((2 * ${E2E_SLOW:-1})); }
step tap ts 704 555                    # item 2's row (y = 554.7, x = 704.3)
step drag ts 700 520 700 349 2500 50   # 171 px = 2 rows up, slowly: +2 items, no fling
step drag ts 700 600 700 430 60 6      # the same distance in 60 ms: a flick
step wheel wh 3 40                     # REL_WHEEL +3 (wheel away from the user): 3 items back
step wheel wh -20 5                    # a burst of 20 quick detents the other way: 20 items on
step hires wh -30 8 5                  # 8 quarter detents toward the user: 2 items on
step key kb KEY_VOLUMEDOWN KEY_VOLUMEDOWN  # 2 back
step key kb KEY_DOWN                   # 1 on
step turn dl 5 30                      # the dial, 5 steps: 5 on
step key dl BTN_0                      # the dial's button selects
step del wh                            # the wheel unplugged ...
step add wheel wh                      # ... and plugged in again
sleep 2
step wheel wh -1                       # still works: 1 on
step two ts 300 300 700 500 0 -120 600 12   # two fingers landing together: the press is cancelled, nothing moves
e2e_stop kiosk TERM 20
e2e_uinput_stop
