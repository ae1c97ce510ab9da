"""Toasts: at most two on screen. A run of quick actions (issue 17: one tap per logged food, each with its Undo toast)
stacked a toast per tap over the page; the oldest now makes way for the newest."""
from playwright.sync_api import expect

from conftest import new_user_with_profile


def test_a_run_of_toasts_keeps_the_newest_two(page, server):
    new_user_with_profile(page, server)
    page.goto(server + "/dashboard")
    page.wait_for_function("() => window.WDiet && WDiet.toast")
    for n in range(1, 5):
        page.evaluate("(n) => WDiet.toast(`Logged food ${n}`, { actionLabel: 'Undo', onAction: () => {} })", n)
    staying = page.locator("#toast-region .toast:not(.toast--leaving)")
    expect(staying).to_have_count(2)
    expect(staying.nth(0)).to_contain_text("Logged food 3")
    expect(staying.nth(1)).to_contain_text("Logged food 4")
    # The older ones are gone from the page once they have left.
    expect(page.locator("#toast-region .toast")).to_have_count(2)
    # The newest keeps its action.
    expect(staying.nth(1).get_by_role("button", name="Undo")).to_be_visible()
