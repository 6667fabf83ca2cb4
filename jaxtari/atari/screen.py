"""The picture: what ALE's ``getScreenRGB`` returns for every 2600 cartridge."""

SCREEN_H = 210  # lines ALE keeps of the NTSC frame
SCREEN_W = 160  # TIA colour clocks of a visible line; objects' x positions wrap here
# A line on which the kernel strobes HMOVE starts with 8 pixels of black (the TIA blanks them while
# it moves the objects); games that HMOVE on every line show a black bar at the left edge.
HMOVE_BAR_W = 8
