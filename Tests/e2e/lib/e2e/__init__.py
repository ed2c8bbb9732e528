"""Kiosk VM test bed: builds a Linux guest with vkms and uinput, runs scenarios in qemu."""
