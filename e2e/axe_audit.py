"""axe-core for the e2e tests (npm ``axe-core``, pinned in package.json's
devDependencies; the site never ships it): ``serious_violations(page)``.

The library is evaluated in the page through Playwright (DevTools), not added
as a ``<script>``: the pages' Content-Security-Policy allows only their own
scripts, and a service worker would answer a routed script request first.
"""

from pathlib import Path

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"


def serious_violations(page) -> list:
    """The page's serious and critical axe-core violations as readable lines (empty: none)."""
    assert AXE.is_file(), f"axe-core is needed for this test (npm ci): {AXE} not found"
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text())
    assert page.evaluate("() => typeof window.axe === 'object'"), "axe-core did not load in the page"
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary).slice(0, 5)}));
    }""")
    return [f"{v['impact']} {v['id']} ({v['help']}): {v['nodes']}" for v in result
            if v["impact"] in ("serious", "critical")]
