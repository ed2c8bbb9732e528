// libasound (Debian: libasound2-dev): the PCM playback calls for spoken menu items.
#include <alsa/asoundlib.h>
