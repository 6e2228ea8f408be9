"""What a test's world costs the kit: set-up and clean-up (the `sms` fixture alone), and with a send waited to
`delivered`, as medians over many worlds on one emulator. Run: python bench_world.py [worlds]

The Node fixture's figures for the same work are in bench/RESULTS.md ("Vitest fixture", process mode rows)."""

import statistics
import sys
import time

from pytest_sms_emulator import CatcherServer, SmsWorld, start


def median_ms(samples):
    return statistics.median(samples) * 1000


def main(worlds: int) -> None:
    emulator = start()
    catchers = CatcherServer()
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
        print(f"worlds: {worlds}")
        print(f"world alone (set-up and clean-up): {median_ms(alone):.2f} ms")
        print(f"world + send + wait for delivered + webhook assertion: {median_ms(with_send):.2f} ms")
    finally:
        catchers.close()
        emulator.stop()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
