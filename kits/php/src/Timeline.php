<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/**
 * Where a failing test's timeline goes: `build/sms-emulator/<run>/` under the project root (the folder holding
 * composer.json), or SMS_EMULATOR_TIMELINE_DIR; one folder per run, so runs never overwrite each other.
 */
final class Timeline
{
    private static ?string $runFolder = null;

    public static function write(string $testId, string $html): string
    {
        if (self::$runFolder === null) {
            $base = getenv('SMS_EMULATOR_TIMELINE_DIR') ?: Emulator::projectRoot(getcwd() ?: '.') . '/build/sms-emulator';
            self::$runFolder = $base . '/run-' . date('Ymd-His') . '-' . getmypid();
            if (!is_dir(self::$runFolder) && !mkdir(self::$runFolder, 0777, true) && !is_dir(self::$runFolder)) {
                throw new EmulatorException(Settings::ERROR_PREFIX . 'cannot make ' . self::$runFolder);
            }
        }
        $file = self::$runFolder . '/' . Contract::timelineFile($testId);
        file_put_contents($file, $html);
        return $file;
    }
}
