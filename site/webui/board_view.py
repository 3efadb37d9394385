"""The board on the page: draws a (position, View) and animates plays.

Drawing is ``render.render_board`` (pure: position + view -> SVG); this file
puts the SVG in the page, keeps keyboard focus across redraws and plays
animation frames one step at a time. It decides nothing.
"""

import asyncio

from .render import GLIDE_S, View, render_board

STEP_S = 0.42  # one checker's step at normal speed (its glide, render.GLIDE_S, and a beat)


class BoardView:
    def __init__(self, el, reduced=False):
        self.el = el
        self.reduced = reduced      # no animations (prefers-reduced-motion, or the speed option "off")
        self.speed = 0.0 if reduced else 1.0  # animation time as a factor of the normal one
        self.rotated = False        # the board drawn a quarter turn (portrait phones): see render.View
        self.animating = False      # a play is being shown: the board is read-only
        self.rendering = False      # innerHTML is being replaced (focus events are ours)
        self.keyboard = False       # keyboard focus is on the board

    def set_speed(self, factor: float) -> None:
        """The animation speed option: a factor of the normal time, 0 for none."""
        self.speed = factor
        self.reduced = factor <= 0

    def draw(self, position, view):
        had_focus = self.keyboard
        self.rendering = True
        try:
            self.el.innerHTML = render_board(position, view)
        finally:
            self.rendering = False
        if had_focus and view.focus is not None:
            el = self.el.querySelector(f'[data-point="{view.focus}"]')
            if el:
                el.focus()
        self.el.dataset.positionId = view.position_id or position.id

    async def animate(self, frames, pos, dice, bottom, me=None, opening=None, still=None, visible=None):
        """Show a play step by step (``frames`` from ``controller.play_frames``).

        ``still()`` says whether the animation is still wanted (the game may
        have been replaced meanwhile); returns False if it stopped early.
        ``visible()`` False skips drawing a frame (the player is looking at
        an earlier position of the history).
        """
        if self.reduced or not frames:
            return True
        self.animating = True
        try:
            for f in frames:
                if still is not None and not still():
                    return False
                if visible is not None and not visible():
                    await asyncio.sleep(STEP_S * self.speed)
                    continue
                v = View(bottom=bottom, dice=dice, dice_left=f.dice_left, me=me, moved=f.moved,
                         turn=pos.turn, position_id=pos.id, opening=opening, extra={"phase": "animating"},
                         glide_s=GLIDE_S * self.speed, rotated=self.rotated)
                self.draw(f.position, v)
                await asyncio.sleep(STEP_S * self.speed)
        finally:
            self.animating = False
        return True
