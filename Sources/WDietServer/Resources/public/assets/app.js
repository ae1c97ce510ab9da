// w-diet's small script: the pages work without it; it only makes them nicer. No inline script anywhere (CSP).
"use strict";
