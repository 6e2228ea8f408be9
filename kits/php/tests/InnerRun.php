<?php

declare(strict_types=1);

use SmsEmulator\PhpUnit\Emulator;

/** A PHPUnit run of the kit's fixtures in a process of its own, on this run's emulator, as a project's own run would be. */
final class InnerRun
{
    /**
     * Runs this run's PHPUnit again (Debian's /usr/bin/phpunit, or vendor/bin/phpunit) from the kit's folder.
     *
     * @param list<string> $arguments PHPUnit's command line
     * @param array<string, string> $env over this run's environment
     * @return array{int, string} the exit status and the output, standard output then standard error
     */
    public static function phpunit(array $arguments, array $env = []): array
    {
        $process = proc_open(
            [PHP_BINARY, realpath($_SERVER['argv'][0]) ?: 'phpunit', ...$arguments],
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']],
            $pipes,
            __DIR__ . '/..',
            $env + ['SMS_EMULATOR_URL' => Emulator::shared()->origin] + getenv(),
        );
        $output = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        return [proc_close($process), $output];
    }
}
