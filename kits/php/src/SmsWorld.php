<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/**
 * Gives each test of a PHPUnit TestCase its own world (`$this->sms`), made before the test and deleted after it; a
 * failing test's timeline is written under the project's build folder and named in the output. Works on PHPUnit 9.6
 * and 10 (the hooks are `@before`/`@postCondition`/`@after` methods). Settings: override `smsWorldOptions()`. Brings
 * the cost assertions (CostAssertions); `#[CostBudget(3)]` on a test fails it when its world spent more than 3 credits.
 *
 *     final class ReminderTest extends TestCase
 *     {
 *         use SmsWorld;
 *
 *         protected function smsWorldOptions(): array
 *         {
 *             return ['webhookUrl' => 'http://127.0.0.1:8080/sms/status', 'signingSecret' => 'my-app-secret'];
 *         }
 *     }
 */
trait SmsWorld
{
    use CostAssertions;

    protected World $sms;

    /**
     * The world's settings, as World::create names them: webhookUrl (the app's own handler), signingSecret,
     * webhookSigningSecret, balance, startTime, environment ('live' or 'sandbox'), scopes, scenario, offset. Override to
     * set them per test class; `#[WorldOptions(...)]` on a test method (or the class) sets them per test, over these.
     */
    protected function smsWorldOptions(): array
    {
        return [];
    }

    /** @before */
    public function setUpSmsWorld(): void
    {
        $this->sms = World::create(Emulator::shared()->control, ...['name' => $this->smsTestId()] + $this->smsTestOptions() + $this->smsWorldOptions());
    }

    /** @return array<string, mixed> the settings of the test's #[WorldOptions], its method's over its class's */
    private function smsTestOptions(): array
    {
        $options = [];
        foreach ($this->smsTestAttributes(WorldOptions::class) as $attribute) {
            $options += $attribute->options;
        }
        return $options;
    }

    /**
     * The test's attributes of one class, its method's before its class's.
     *
     * @template T of object
     * @param class-string<T> $class
     * @return list<T>
     */
    private function smsTestAttributes(string $class): array
    {
        $method = new \ReflectionMethod($this, method_exists($this, 'name') ? $this->name() : $this->getName(false));
        $found = [];
        foreach ([$method, $method->getDeclaringClass()] as $where) {
            foreach ($where->getAttributes($class) as $attribute) {
                $found[] = $attribute->newInstance();
            }
        }
        return $found;
    }

    /**
     * Fails a test that passed but whose world spent more than its `#[CostBudget]`, with the world's top spenders.
     *
     * @postCondition
     */
    public function assertSmsCostBudget(): void
    {
        $budget = $this->smsTestAttributes(CostBudget::class)[0] ?? null;
        if ($budget !== null) {
            $this->sms->assertCostAtMost($budget->credits);
        }
    }

    /** @after */
    public function tearDownSmsWorld(): void
    {
        if (!isset($this->sms)) {
            return;
        }
        if ($this->smsTestFailed()) {
            $file = Timeline::write($this->smsTestId(), $this->sms->timelineHtml());
            fwrite(STDERR, "\n" . Settings::ERROR_PREFIX . "the timeline of {$this->smsTestId()}: $file\n");
        }
        SuiteSpend::record($this->smsTestId(), $this->sms);
        $this->sms->close();
    }

    /** The test's full id, as the timeline's file name rule takes it: `Class::method` with its data set. */
    private function smsTestId(): string
    {
        $name = method_exists($this, 'nameWithDataSet') ? $this->nameWithDataSet() : $this->getName(true);
        return static::class . '::' . $name;
    }

    private function smsTestFailed(): bool
    {
        if (method_exists($this, 'status')) {
            $status = $this->status();
            return $status->isFailure() || $status->isError();
        }
        return $this->hasFailed();
    }
}
