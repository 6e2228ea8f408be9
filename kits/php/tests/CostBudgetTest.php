<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/InnerRun.php';

/** A test over its #[CostBudget] fails with its world's top spenders; a run over its SuiteCostBudget fails at its end naming the tests that spent most. */
final class CostBudgetTest extends TestCase
{
    private string $folder;

    protected function setUp(): void
    {
        $this->folder = sys_get_temp_dir() . '/sms-php-budgets-' . bin2hex(random_bytes(4));
        mkdir($this->folder);
    }

    protected function tearDown(): void
    {
        exec('rm -rf ' . escapeshellarg($this->folder));
    }

    /** @return array{int, string} a run of one fixture, under a suite budget when one is given */
    private function runFixture(string $fixture, ?int $suiteBudget = null): array
    {
        $config = __DIR__ . '/../phpunit.xml';
        if ($suiteBudget !== null) {
            $config = "$this->folder/phpunit.xml";
            file_put_contents($config, '<phpunit bootstrap="' . __DIR__ . '/bootstrap.php"><extensions>'
                . '<extension class="SmsEmulator\PhpUnit\SuiteCostBudget"><arguments><integer>' . $suiteBudget . '</integer></arguments></extension>'
                . '</extensions></phpunit>');
        }
        // The failing test's timeline goes to this test's own folder.
        return InnerRun::phpunit(['-c', $config, __DIR__ . "/fixtures/$fixture.php"], ['SMS_EMULATOR_TIMELINE_DIR' => $this->folder]);
    }

    public function testATestOverItsCostBudgetFailsWithItsWorldsTopSpendersAndOneWithinPasses(): void
    {
        [$exit, $output] = $this->runFixture('CostBudgetFixtureTest');
        self::assertSame(1, $exit, $output);
        self::assertStringContainsString("There was 1 failure:\n\n1) CostBudgetFixtureTest::testTheCurlyParcelNoticeGoesOverTheClassBudget\n"
            . "expected this world to cost at most 1 credit; it spent 2 credits on 1 message. Top spenders:\n"
            . '  - 2 credits: to 27831234567: "Your parcel’s ready at the Main Street locker: collect it by…" (UCS-2, 2 segments × 1 recipient; UCS-2 forced by "’" at 12)', $output);
        self::assertStringContainsString('Tests: 2, Assertions: 5, Failures: 1.', $output);
    }

    public function testARunOverItsSuiteBudgetFailsAtItsEndNamingTheTestsThatSpentMost(): void
    {
        [$exit, $output] = $this->runFixture('SpendingFixtureTest', 4);
        self::assertSame(1, $exit, $output);
        self::assertStringContainsString('OK (3 tests', $output);
        self::assertStringEndsWith("sms-emulator: the suite spent 5 credits, over its budget of 4 credits. Top spenders:\n"
            . '  - SpendingFixtureTest::testTheParcelNotice: 4 credits; its costliest: 4 credits: to 27831234567, 27831234568: "Your parcel’s ready at the Main Street locker: collect it by…" (UCS-2, 2 segments × 2 recipients; UCS-2 forced by "’" at 12)' . "\n"
            . '  - SpendingFixtureTest::testTheReminder: 1 credit; its costliest: 1 credit: to 27831234567: "Reminder: 09:00" (GSM-7, 1 segment × 1 recipient)' . "\n"
            . "  - SpendingFixtureTest::testNothingSent: 0 credits\n", $output);
    }

    public function testANegativeTestOrSuiteBudgetIsRefusedNamingWhatABudgetTakes(): void
    {
        [$exit, $output] = $this->runFixture('NegativeBudgetFixtureTest');
        self::assertSame(2, $exit, $output);
        self::assertStringContainsString('sms-emulator: #[CostBudget] takes a whole number of credits from 0, not -1', $output);
        [$exit, $output] = $this->runFixture('SpendingFixtureTest', -1);
        self::assertNotSame(0, $exit, $output);
        self::assertStringContainsString('sms-emulator: the SuiteCostBudget extension takes a whole number of credits from 0, not -1', $output);
    }

    public function testARunWithinItsSuiteBudgetOrWithoutOnePasses(): void
    {
        foreach ([5, null] as $budget) {
            [$exit, $output] = $this->runFixture('SpendingFixtureTest', $budget);
            self::assertSame(0, $exit, $output);
            self::assertStringNotContainsString('the suite spent', $output);
        }
    }
}
