#!/bin/sh
# Switches the "lights": writes the state file the toggle reads back (and the switches made, for the check).
echo "$1" > /run/live/lights
echo "$1" >> /run/live/switches
