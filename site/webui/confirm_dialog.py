"""An accessible "are you sure?" dialog for the page (``<dialog id="confirm">``).

``ConfirmDialog.ask(title, text, yes, action)`` opens it modally
(``showModal``: focus moves into it, the page behind is inert, Escape
cancels) with "Keep playing" focused, so a stray tap or Enter never loses a
game; ``action()`` runs only when the player chooses ``yes``.
"""

from .dom import by_id, on


class ConfirmDialog:
    def __init__(self):
        self.el = by_id("confirm")
        self.action = None
        on(by_id("confirm-yes"), "click", lambda e: self._answer(True))
        on(by_id("confirm-no"), "click", lambda e: self._answer(False))
        on(self.el, "cancel", lambda e: self._answer(False))   # Escape

    @property
    def open(self) -> bool:
        return bool(self.el.open)

    def ask(self, title, text, yes, action):
        by_id("confirm-title").textContent = title
        by_id("confirm-text").textContent = text
        by_id("confirm-yes").textContent = yes
        self.action = action
        if not self.el.open:
            self.el.showModal()
        by_id("confirm-no").focus()

    def _answer(self, yes):
        action, self.action = self.action, None
        if self.el.open:
            self.el.close()
        if yes and action is not None:
            action()
