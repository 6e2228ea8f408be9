<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/**
 * One world's own test clock (`$this->sms->clock()`): every move answers after the webhooks it made due were tried, and
 * only this world's tasks fire, so tests sharing an emulator never move each other's time.
 *
 * @phpstan-import-type TestClock from Answers
 */
final class WorldClock
{
    public function __construct(private readonly Control $control, public readonly string $id)
    {
    }

    /**
     * Moves the clock forward ("15m", milliseconds or a DateInterval).
     *
     * @return TestClock
     */
    public function advance(\DateInterval|string|int $duration): array
    {
        return $this->control->clocksMove($this->id, ['advance' => Schedule::duration($duration)]);
    }

    /**
     * Sets the clock to an instant (queued events fire in time order on the way).
     *
     * @return TestClock
     */
    public function set(\DateTimeInterface|string $instant): array
    {
        return $this->control->clocksMove($this->id, ['set' => Schedule::instant($instant)]);
    }

    /**
     * Runs the clock until nothing is queued, or for at most `$limit` of its time (default 30 days).
     *
     * @return TestClock
     */
    public function runUntilIdle(\DateInterval|string|int|null $limit = null): array
    {
        $command = ['runUntilIdle' => true];
        if ($limit !== null) {
            $command['limit'] = Schedule::duration($limit);
        }
        return $this->control->clocksMove($this->id, $command);
    }

    /**
     * Runs the clock to its next queued event.
     *
     * @return TestClock
     */
    public function next(): array
    {
        return $this->control->clocksMove($this->id, ['next' => true]);
    }

    /** The clock's time now, as an instant. */
    public function now(): \DateTimeImmutable
    {
        return new \DateTimeImmutable($this->control->clocksGet($this->id)['time']);
    }
}
