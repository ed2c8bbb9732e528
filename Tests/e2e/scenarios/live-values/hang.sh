#!/bin/sh
# A sensor that never answers: the kiosk kills it after its timeout.
exec sleep 30
