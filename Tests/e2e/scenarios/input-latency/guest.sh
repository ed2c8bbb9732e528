# e2e-timeout: 300
# e2e-needs: kiosk
# e2e-figures: input-to-flip latency
# Input-to-flip latency: 200 wheel detents, then 200 dial steps (a REL_DIAL device, read from
# evdev), each far enough apart to be shown on its own; the kiosk measures from the kernel's
# timestamp of the event to the flip that shows it, by kind of input.
e2e_uinput_start
ui add wheel wh
ui add dial dl
e2e_bg kiosk kiosk demo --motion none
sleep 5
ui wheel wh 200 150
sleep 1
ui turn dl 200 150
sleep 2
e2e_stop kiosk TERM 20
e2e_uinput_stop
