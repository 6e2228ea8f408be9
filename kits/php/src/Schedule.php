<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/**
 * Times as the emulator takes them: schedule text YYYY-MM-DDTHH:MM±HH:MM (test-vectors/schedule.json), instants as ISO
 * text, durations as "15m" or milliseconds; a DateTimeInterface or DateInterval is accepted wherever text is.
 */
final class Schedule
{
    /**
     * An instant as the API's schedule text in `$offset`; a time between minutes rounds up, never earlier. Given text
     * (such as a message's `schedule`, which the API answers with seconds), the same instant in the text's own offset.
     */
    public static function format(\DateTimeInterface|string $instant, string $offset = '+02:00'): string
    {
        if (is_string($instant)) {
            if (preg_match('/([+-]\d{2}:\d{2})$/', $instant, $match) === 1) {
                $offset = $match[1];
            }
            $instant = new \DateTimeImmutable($instant);
        }
        $utc = \DateTimeImmutable::createFromInterface($instant)->setTimezone(new \DateTimeZone('UTC'));
        $whole = $utc->setTime((int) $utc->format('H'), (int) $utc->format('i'));
        if ($whole < $utc) {
            $whole = $whole->modify('+1 minute');
        }
        return $whole->setTimezone(new \DateTimeZone($offset))->format('Y-m-d\TH:i') . $offset;
    }

    /** A duration as the control API takes it: text as it is ("15m"), a DateInterval or a number as whole milliseconds. */
    public static function duration(\DateInterval|string|int $duration): string|int
    {
        if (is_string($duration) || is_int($duration)) {
            return $duration;
        }
        $start = new \DateTimeImmutable('@0');
        $end = $start->add($duration);
        return (int) round(((float) $end->format('U.u') - (float) $start->format('U.u')) * 1000);
    }

    /** An instant as the control API takes it: text as it is, a DateTimeInterface as ISO 8601 text with its offset. */
    public static function instant(\DateTimeInterface|string $instant): string
    {
        return is_string($instant) ? $instant : $instant->format(\DateTimeInterface::RFC3339_EXTENDED);
    }
}
