<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use SmsEmulator\PhpUnit\Contract;
use SmsEmulator\PhpUnit\Emulator;
use SmsEmulator\PhpUnit\EmulatorException;
use SmsEmulator\PhpUnit\Settings;

/** The kit's defaults, error prefix and duration grammar are the kit contract's `settings`, example for example. */
final class SettingsTest extends TestCase
{
    public function testTheDefaultsAndTheErrorPrefixAreTheContracts(): void
    {
        $settings = Contract::get()['settings'];
        self::assertSame($settings['errorPrefix'], Settings::ERROR_PREFIX);
        self::assertSame($settings['startTimeout']['env'], Settings::START_TIMEOUT_ENV);
        self::assertSame($settings['startTimeout']['ms'], Settings::durationMs('start', Settings::START_TIMEOUT));
        self::assertSame($settings['controlTimeout']['ms'], Settings::durationMs('control', Settings::CONTROL_TIMEOUT));
        self::assertSame($settings['waitWithin']['ms'], Settings::durationMs('within', Settings::WAIT_WITHIN));
    }

    public function testEveryDurationExampleOfTheContractIsReadAsItSaysOrRefusedWithItsProblemText(): void
    {
        $grammar = Contract::get()['settings']['durationGrammar'];
        self::assertNotEmpty($grammar['examples']);
        foreach ($grammar['examples'] as $example) {
            if ($example['ms'] !== null) {
                self::assertSame($example['ms'], Settings::durationMs('SETTING', $example['text']), $example['text']);
                continue;
            }
            try {
                Settings::durationMs('SETTING', $example['text']);
                self::fail("{$example['text']} was read as a duration");
            } catch (InvalidArgumentException $problem) {
                self::assertSame(strtr($grammar['problem'], ['{name}' => 'SETTING', '{text}' => $example['text']]), $problem->getMessage());
            }
        }
    }

    public function testTheStartTimeoutVariableIsReadWithTheGrammarAndTwoMinutesIsOneHundredTwentySeconds(): void
    {
        $before = getenv(Settings::START_TIMEOUT_ENV);
        try {
            putenv(Settings::START_TIMEOUT_ENV . '=2m');
            self::assertSame(120_000, Emulator::startTimeoutMs());
            putenv(Settings::START_TIMEOUT_ENV . '=120');
            self::assertSame(120_000, Emulator::startTimeoutMs());
            putenv(Settings::START_TIMEOUT_ENV);
            self::assertSame(Contract::get()['settings']['startTimeout']['ms'], Emulator::startTimeoutMs());
            putenv(Settings::START_TIMEOUT_ENV . '=2x');
            $this->expectException(EmulatorException::class);
            $this->expectExceptionMessage(Settings::ERROR_PREFIX . Settings::START_TIMEOUT_ENV . '="2x" is not a duration');
            Emulator::startTimeoutMs();
        } finally {
            putenv($before === false ? Settings::START_TIMEOUT_ENV : Settings::START_TIMEOUT_ENV . "=$before");
        }
    }
}
