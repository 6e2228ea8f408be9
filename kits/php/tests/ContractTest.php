<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use SmsEmulator\PhpUnit\Contract;
use SmsEmulator\PhpUnit\Control;
use SmsEmulator\PhpUnit\Emulator;

/** The kit held to the one kit contract (test-vectors/kit-contract.json): operations, version, paths, timeline names. */
final class ContractTest extends TestCase
{
    public function testEveryControlOperationOfTheContractIsAMethodOfControl(): void
    {
        $operations = Contract::get()['operations'];
        self::assertGreaterThan(40, count($operations));
        $missing = array_values(array_filter(
            array_map(static fn (array $operation) => $operation['names']['php'], $operations),
            static fn (string $name) => !method_exists(Control::class, $name),
        ));
        self::assertSame([], $missing, 'control operations the PHP kit lacks: run npm run vectors');
    }

    public function testThePackageVersionIsTheContractsVersion(): void
    {
        $composer = json_decode((string) file_get_contents(__DIR__ . '/../composer.json'), true, 512, JSON_THROW_ON_ERROR);
        self::assertSame(Contract::get()['version'], $composer['version']);
    }

    public function testTheControlPrefixAndApiPathsAreTheContracts(): void
    {
        $paths = Contract::get()['paths'];
        self::assertSame('/_emulator', $paths['control']);
        $source = (string) file_get_contents(__DIR__ . '/../src/Control.php');
        self::assertStringContainsString("'" . $paths['control'] . "'", $source);
        self::assertSame(['live', 'sandbox'], array_keys($paths['api']));
    }

    public function testTimelineFileNamesFollowTheContractsRuleForEveryExample(): void
    {
        $timeline = Contract::get()['timeline'];
        self::assertNotEmpty($timeline['examples']);
        foreach ($timeline['examples'] as $example) {
            $file = Contract::timelineFile($example['test']);
            self::assertSame($example['file'], $file, $example['test']);
            self::assertLessThanOrEqual($timeline['maxLength'], strlen($file));
        }
    }

    public function testARelativeCommandIsResolvedAgainstTheProjectRootFromAnyFolder(): void
    {
        $root = (string) realpath(__DIR__ . '/..');
        $words = explode(' ', Emulator::resolveCommand('node ../../bin/sms-emulator.js --seed 1', $root . '/tests/fixtures'));
        self::assertSame('node', $words[0]);
        self::assertSame($root . '/../../bin/sms-emulator.js', $words[1]);
        self::assertFileExists($words[1]);
        self::assertSame(['--seed', '1'], array_slice($words, 2));
    }
}
