"""``lald serve --workers N`` watching its site (:class:`lald.cli.host.site.Site`), on a clock of
the test's own with processes that only pretend: nginx is started once the servers are
ready and "serving" said once nginx answers; a server or nginx that stops is started again
after pauses that double; nginx stopping again and again stops the site."""

from __future__ import annotations

import itertools

from lald.cli.host.site import NGINX_RESTARTS, Restarts, Site


class Clock:
    def __init__(self) -> None:
        self.now = 0.0
        self.at: list[tuple[float, object]] = []
        """(time, callable) to call once the clock reaches the time."""

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        for when, do in list(self.at):
            if self.now >= when:
                self.at.remove((when, do))
                do()  # type: ignore[operator]


class Proc:
    """A child process that ends when told (or ``life`` seconds after it starts)."""

    pids = itertools.count(10_000_000)  # never a real process

    def __init__(self, clock: Clock, life: float | None = None) -> None:
        self.pid = next(self.pids)
        self.returncode: int | None = None
        self.ends = None if life is None else clock.now + life
        self.clock = clock
        self.signals: list[int] = []

    def poll(self) -> int | None:
        if self.returncode is None and self.ends is not None and self.clock.now >= self.ends:
            self.returncode = 1
        return self.returncode

    def send_signal(self, sig: int) -> None:
        self.signals.append(sig)
        self.returncode = 0

    def wait(self, timeout: float | None = None) -> int:
        return self.returncode or 0

    def kill(self) -> None:
        self.returncode = -9


class World:
    """The site's surroundings: what was started and said, and when."""

    def __init__(self, nginx_life: float | None = None, ready_at: float = 3.0) -> None:
        self.clock = Clock()
        self.events: list[tuple[float, str]] = []
        self.procs: dict[str, list[Proc]] = {"w1": [], "w2": [], "nginx": []}
        self.nginx_life, self.ready_at = nginx_life, ready_at
        self.groups_ended: list[int] = []
        self.site = Site([("w1", "127.0.0.1:8001"), ("w2", "127.0.0.1:8002")], "http://127.0.0.1:8000",
                         self.start_worker, self.start_nginx, clock=self.clock, sleep=self.clock.sleep,
                         ready=self.ready, say=lambda line: self.events.append((self.clock.now, line)),
                         warn=lambda line: self.events.append((self.clock.now, line)),
                         end_group=lambda p: self.groups_ended.append(p.pid))

    def start_worker(self, name: str, address: str) -> Proc:
        self.events.append((self.clock.now, f"start {name}"))
        self.procs[name].append(Proc(self.clock))
        return self.procs[name][-1]

    def start_nginx(self) -> Proc:
        self.events.append((self.clock.now, "start nginx"))
        self.procs["nginx"].append(Proc(self.clock, self.nginx_life))
        return self.procs["nginx"][-1]

    def ready(self, url: str) -> bool:
        if url.endswith("/readyz"):  # a server: ready some time after it starts
            return self.clock.now >= self.ready_at
        nginx = self.procs["nginx"]  # through nginx: once it has started, and a moment more
        started = next((t for t, e in self.events if e == "start nginx"), None)
        alive = bool(nginx) and nginx[-1].poll() is None
        return alive and started is not None and self.clock.now >= started + 1

    def said(self, words: str) -> list[float]:
        return [t for t, e in self.events if words in e]


def test_nginx_starts_once_the_servers_are_ready_and_serving_is_said_once_it_answers() -> None:
    world = World(ready_at=3.0)
    world.clock.at.append((20.0, world.site.stop_soon))
    assert world.site.run() == 0
    [nginx] = world.said("start nginx")
    [serving] = world.said("lald: serving on")
    assert world.said("start w1") == world.said("start w2") == [0.0]
    assert nginx >= 3.0  # not before the servers answer /readyz
    assert serving >= nginx + 1  # not before a request through nginx is answered


def test_nginx_that_stops_is_started_again_and_the_site_serves_on() -> None:
    world = World()
    world.clock.at.append((10.0, lambda: world.procs["nginx"][-1].kill()))
    world.clock.at.append((30.0, world.site.stop_soon))
    assert world.site.run() == 0
    assert len(world.said("start nginx")) == 2
    [stopped] = world.said("lald serve: nginx stopped (status -9); starting it again")
    assert stopped <= world.said("start nginx")[1] < stopped + 0.2  # at once
    assert world.groups_ended[0] == world.procs["nginx"][0].pid  # what was left of the first stopped
    assert len(world.said("start w1")) == 1  # the servers serve on, untouched


def test_nginx_stopping_again_and_again_stops_the_site() -> None:
    world = World(nginx_life=2.0)
    world.clock.at.append((600.0, world.site.stop_soon))  # not reached
    assert world.site.run() == 1
    starts = world.said("start nginx")
    assert len(starts) == NGINX_RESTARTS + 1
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    # each one lived 2 s; then a pause that doubles (and up to a look of 0.2 s to see it)
    assert all(0 <= gap - 2 - pause <= 0.5 for gap, pause in zip(gaps, [0, 0.5, 1, 2, 4], strict=True)), gaps
    [given_up] = world.said("times in 60 s; stopping the site")
    assert given_up < 600
    assert "lald serve: nginx stopped (status 1), 6 times in 60 s; stopping the site" in world.events[-1][1]


def test_a_server_that_stops_is_started_again_after_pauses_that_double() -> None:
    world = World()
    for at in (10.0, 10.5, 11.5):
        world.clock.at.append((at, lambda: world.procs["w1"][-1].kill()))
    world.clock.at.append((40.0, world.site.stop_soon))
    assert world.site.run() == 0
    starts = world.said("start w1")
    assert len(starts) == 4 and len(world.said("start nginx")) == 1
    assert world.said("server w1 stopped (status -9); starting it again in 0.5 s")


def test_restarts_are_bounded_within_their_window_only() -> None:
    restarts = Restarts(3, window=60, first=0.5, longest=2)
    assert [restarts.pause(t) for t in (0, 1, 2)] == [0.0, 0.5, 1.0]
    assert restarts.pause(3) is None  # a fourth stop within a minute
    spread = Restarts(3, window=60)
    assert all(spread.pause(t * 30.0) is not None for t in range(20))  # once every 30 s: never
    forever = Restarts(None, first=0.5, longest=8)
    assert [forever.pause(t) for t in range(8)] == [0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
