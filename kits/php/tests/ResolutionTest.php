<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;

/** How the kit finds its emulator, seen from a run of its own: a wrong URL, and a run that is killed. */
final class ResolutionTest extends TestCase
{
    /** @return array{string, string} the script's output and error output */
    private static function runScript(array $env, string $mode = ''): array
    {
        $process = proc_open([PHP_BINARY, __DIR__ . '/fixtures/start-and-die.php', $mode], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, __DIR__ . '/..', $env + getenv());
        $output = [stream_get_contents($pipes[1]), stream_get_contents($pipes[2])];
        proc_close($process);
        return $output;
    }

    public function testAUrlThatDoesNotAnswerIsOneErrorNamingTheVariableAndTheRunDoesNotTryAgain(): void
    {
        [$output, $errors] = self::runScript(['SMS_EMULATOR_URL' => 'http://127.0.0.1:9']);
        self::assertStringContainsString('attempt 1: sms-emulator: SMS_EMULATOR_URL=http://127.0.0.1:9 does not answer', $output);
        self::assertStringContainsString('attempt 2: sms-emulator: SMS_EMULATOR_URL=http://127.0.0.1:9 does not answer', $output);
        self::assertSame(1, substr_count($errors, 'sms-emulator: emulator from'), 'the order is announced once per run');
    }

    public function testAPasswordInTheUrlIsMaskedWhereverTheKitPrintsItAsTheEmulatorDoes(): void
    {
        [$output, $errors] = self::runScript(['SMS_EMULATOR_URL' => 'http://proxy:pw-PLANTED-1@127.0.0.1:9']);
        self::assertStringContainsString('SMS_EMULATOR_URL=http://proxy:***@127.0.0.1:9 does not answer', $output);
        self::assertStringContainsString('emulator from SMS_EMULATOR_URL=http://proxy:***@127.0.0.1:9', $errors);
        self::assertStringNotContainsString('pw-PLANTED-1', $output . $errors);
        self::assertSame('http://user:***@[::1]:4000/hook?to=a@b', \SmsEmulator\PhpUnit\Http::shownUrl('http://user:p@ss:w@rd@[::1]:4000/hook?to=a@b'));
        foreach (['http://127.0.0.1:4000/x', 'http://hooks@h/', 'http://u:@h/', 'http://h/p@x', 'not a url: pw@host'] as $kept) {
            self::assertSame($kept, \SmsEmulator\PhpUnit\Http::shownUrl($kept));
        }
    }

    public function testARunKilledAfterStartingItsEmulatorLeavesNoTemporaryFolder(): void
    {
        $tmp = sys_get_temp_dir() . '/sms-php-killed-' . bin2hex(random_bytes(4));
        mkdir($tmp);
        try {
            [$output] = self::runScript(['TMPDIR' => $tmp, 'SMS_EMULATOR_URL' => '', 'SMS_EMULATOR_COMMAND' => getenv('SMS_EMULATOR_COMMAND') ?: 'node ../../bin/sms-emulator.js'], 'die');
            self::assertSame('', $output);
            self::assertSame([], array_values(array_diff(scandir($tmp) ?: [], ['.', '..'])));
        } finally {
            foreach (glob("$tmp/*/*") ?: [] as $file) {
                @unlink($file);
            }
            foreach (glob("$tmp/*") ?: [] as $folder) {
                @rmdir($folder);
            }
            rmdir($tmp);
        }
    }
}
