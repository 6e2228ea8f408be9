"""What a test's world costs the kit: set-up and clean-up (the `sms` fixture alone), and with a send waited to
`delivered` and a webhook assertion, as medians over many worlds on one emulator found by the kit's rule (the carried
runtime when installed from the wheel). Run: python bench_world.py [worlds] [--json]

The Node fixture's figures for the same work are in bench/RESULTS.md ("Vitest fixture", process mode rows)."""

import json
import statistics
import sys
import time

from pytest_sms_emulator import CatcherServer, SmsWorld, start
from pytest_sms_emulator.emulator import resolve


def median_ms(samples):
    return statistics.median(samples) * 1000


def main(worlds: int, as_json: bool) -> None:
    resolution = resolve()
    emulator = start(resolution=resolution)
    catchers = CatcherServer(emulator.control.limits().max_body_size)
    try:
        alone, with_send = [], []
        for index in range(worlds + 20):
            began = time.perf_counter()
            world = SmsWorld(emulator, catchers, f"bench {index}")
            world.close()
            middle = time.perf_counter()
            world = SmsWorld(emulator, catchers, f"bench send {index}")
            sent = world.client.send("27831234567", "Your appointment is at 10:00")
            world.wait_for(sent["id"]).to_reach("delivered")
            world.assert_webhook(id=sent["id"], status="delivered")
            world.close()
            ended = time.perf_counter()
            if index >= 20:  # the first ones also warm up both processes
                alone.append(middle - began)
                with_send.append(ended - middle)
        if as_json:
            print(json.dumps({
                "kit": "python", "worlds": worlds, "emulator": resolution.step,
                "worldMs": round(median_ms(alone), 2), "worldWithSendMs": round(median_ms(with_send), 2),
            }))  # fmt: skip
            return
        print(resolution.describe())
        print(f"worlds: {worlds}")
        print(f"world alone (set-up and clean-up): {median_ms(alone):.2f} ms")
        print(f"world + send + wait for delivered + webhook assertion: {median_ms(with_send):.2f} ms")
    finally:
        catchers.close()
        emulator.stop()


if __name__ == "__main__":
    numbers = [arg for arg in sys.argv[1:] if arg.isdigit()]
    main(int(numbers[0]) if numbers else 300, "--json" in sys.argv[1:])
