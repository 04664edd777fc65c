"""How every test browser is set up (tests/e2e and tests/pwa): its flags, and the frame
rate of its pages.

The browser tests are bound by CPU on a 2-core machine, and with no GPU Chromium draws
Flutter's WebGL canvas in software (SwiftShader): every frame is the whole screen again.
Two savings, measured with benchmarks/bench_test_browser_cpu.py:

- Headless Chromium (156) opens a page of its own beside each new browser context: the
  address bar's suggestion popup (chrome://omnibox-popup.top-chrome), in a renderer of
  its own, 0.45-0.58 s of CPU a context, a fifth to a quarter of what opening the app
  costs. A test browser has no address bar to type in. Chromium takes the last
  --disable-features it is given, whole: the list repeats the features Playwright (1.65)
  turns off for its own reasons, then adds the popup's.
- After a tap the app animates for about a second (the ink of the button, a scroll to the
  number pad), 60 frames a second: 0.2-0.4 s of CPU a tap, more than the tap's own work.
  The pages draw at most 20 frames a second (`fewer_frames`): a hand recorded on the
  phone cost 2.9 s of CPU at 60 frames, 1.75 s at 20. Every state the app shows is still
  drawn, in at most 50 ms more; animations keep their length (Flutter times them by
  the clock), they only show fewer steps, as on a slow phone.

  Playwright clicks once an element's place is the same at two animation frames of its
  own, which run at 60 a second whatever the page's rate: between two of the page's
  frames a scrolling button looked still, and a tap during the scroll is not a tap
  (Flutter's lists ignore taps while they scroll to show a focused box). A step that
  starts a scroll waits until the screen holds still at the page's own frames
  (`STILL_JS`: `table_steps.type_into`). Doing so before every click cost 40 % more CPU.
"""

from __future__ import annotations

from playwright.sync_api import BrowserContext

PLAYWRIGHT_DISABLED_FEATURES = (
    "AimEnabled", "AvoidCorsURLLoaderRestartOnRedirect",
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose",
    "HttpsFirstBalancedModeAutoEnable", "HttpsUpgrades", "LensOverlay", "MediaRouter",
    "NetworkTimeServiceQuerying", "OptimizationHints", "PaintHolding", "PreconnectToSearch",
    "TcpPortRandomizationWin", "ThirdPartyStoragePartitioning",
    "msEdgeUpdateLaunchServicesPreferredVersion", "msForceBrowserSignIn",
)
"""Playwright's own list (its chromiumSwitches), which a second flag would replace."""
NO_ADDRESS_BAR_POPUP = ("WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + NO_ADDRESS_BAR_POPUP),
]

FRAME_MS = 50
"""The shortest time between two frames of a test page: 20 frames a second."""

FEWER_FRAMES_JS = """(() => {
  const FRAME_MS = FRAME_MS_HERE;
  const raf = window.requestAnimationFrame.bind(window);
  const caf = window.cancelAnimationFrame.bind(window);
  const pending = new Map();  // our id -> [how to cancel it, its timer or frame]
  let next = 1, last = -Infinity;
  window.requestAnimationFrame = (callback) => {
    const id = next++;
    const ask = () => pending.set(id, [caf, raf((time) => {
      pending.delete(id);
      last = performance.now();
      callback(time);
    })]);
    const wait = last + FRAME_MS - performance.now();
    if (wait <= 0) ask(); else pending.set(id, [clearTimeout, setTimeout(ask, wait)]);
    return id;
  };
  window.cancelAnimationFrame = (id) => {
    const waiting = pending.get(id);
    if (waiting) { pending.delete(id); waiting[0](waiting[1]); }
  };
})();""".replace("FRAME_MS_HERE", str(FRAME_MS))
"""Run before each page's own scripts: a frame asked for sooner than FRAME_MS after the
last one waits for it. Callbacks keep their order (Flutter's frame, then a test's
`DRAWN`), and Playwright's own checks run in a world of their own, unthrottled."""


def fewer_frames(context: BrowserContext) -> BrowserContext:
    """`context`, its pages drawing at most 1000 / FRAME_MS frames a second."""
    context.add_init_script(FEWER_FRAMES_JS)
    return context


STILL_JS = """(element) => new Promise((done) => {
  const place = () => {
    const r = element.getBoundingClientRect();
    return [r.x, r.y, r.width, r.height].join();
  };
  let last = place(), frames = 0;
  const look = () => requestAnimationFrame(() => {
    const now = place();
    if (now === last || ++frames > 60) done();
    else { last = now; look(); }
  });
  look();
})"""
"""Resolves once the element is in the same place at two of the page's frames (at most
60 frames: 3 s at 20 a second)."""

