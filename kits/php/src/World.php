<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

use PHPUnit\Framework\Assert;

/**
 * One test's world: an account of its own on a test clock of its own (its own signing secret, start time, balances,
 * environment, scopes and scenario), whose webhooks go to the app's own handler. The emulator's webhook log is the
 * kit's copy of every delivery (payload, every try and the app's answer), so assertions and waits see each one while
 * the app answers for real. Worlds never see each other: tests may run in parallel against one emulator.
 *
 * @phpstan-import-type ControlMessage from Answers
 * @phpstan-import-type TestClock from Answers
 * @phpstan-import-type WebhookEvent from Answers
 * @phpstan-import-type OptOut from Answers
 * @phpstan-import-type Account from Answers
 * @phpstan-import-type ReceiverReport from Answers
 * @phpstan-import-type Spend from Answers
 */
final class World
{
    public readonly SmsClient $sms;
    public readonly string $apiKey;
    public readonly string $signingSecret;
    /** The secret the emulator signs this world's webhooks with (`Webhook-Signature`): its own, given or generated. */
    public readonly ?string $webhookSigningSecret;
    public readonly string $clockId;
    private ?WorldClock $clock = null;

    private function __construct(public readonly Control $control, array $made, public readonly string $environment, string $offset)
    {
        $this->apiKey = $made['account']['apiKey'];
        $this->signingSecret = $made['account']['signingSecret'];
        $this->webhookSigningSecret = $made['account']['webhookSigningSecret'] ?? null;
        $this->clockId = $made['clock']['id'];
        $this->sms = new SmsClient($control->origin, $this->apiKey, $this->signingSecret, $environment, $offset);
    }

    /**
     * Makes a world in one call. `$webhookUrl` is the app's own handler (its deliveries go there, retried as the spec
     * says when it fails); without one, deliveries are logged but posted nowhere. `$startTime` and `$scenario` as the
     * control API takes them (ISO text or a DateTimeInterface; an array, or YAML or JSON text). `$webhookSigningSecret`
     * is the secret its webhooks are signed with (`Webhook-Signature`), generated for the world unless given.
     */
    public static function create(
        Control $control,
        string $name = 'php test',
        ?string $webhookUrl = null,
        ?string $signingSecret = null,
        ?int $balance = null,
        \DateTimeInterface|string|null $startTime = null,
        string $environment = 'live',
        ?array $scopes = null,
        array|string|null $scenario = null,
        string $offset = '+02:00',
        ?string $webhookSigningSecret = null,
    ): self {
        $account = array_filter([
            'signingSecret' => $signingSecret,
            'webhookSigningSecret' => $webhookSigningSecret,
            'balance' => $environment === 'live' ? $balance : null,
            'sandboxBalance' => $environment === 'sandbox' ? $balance : null,
            'webhookUrl' => $environment === 'live' ? $webhookUrl : null,
            'sandboxWebhookUrl' => $environment === 'sandbox' ? $webhookUrl : null,
            'scopes' => $scopes,
        ], static fn ($value) => $value !== null);
        $request = array_filter([
            // The world's name shows in the inbox and the report: the test's id, cut to the 200 characters a name may have.
            'name' => mb_substr($name, -200),
            'startTime' => $startTime === null ? null : Schedule::instant($startTime),
            'account' => $account === [] ? null : $account,
            'scenario' => $scenario,
        ], static fn ($value) => $value !== null);
        return new self($control, $control->worldsCreate($request), $environment, $offset);
    }

    /** This world's own test clock: `advance`, `set`, `runUntilIdle`, `next`, `now`. */
    public function clock(): WorldClock
    {
        return $this->clock ??= new WorldClock($this->control, $this->clockId);
    }

    /** This world's time now, as an instant. */
    public function now(): \DateTimeImmutable
    {
        return $this->clock()->now();
    }

    /**
     * @deprecated use clock()->advance() (decision 0003: one facade in every kit)
     * @return TestClock
     */
    public function advance(\DateInterval|string|int $duration): array
    {
        return $this->clock()->advance($duration);
    }

    /**
     * @deprecated use clock()->set() (decision 0003: one facade in every kit)
     * @return TestClock
     */
    public function setTime(\DateTimeInterface|string $instant): array
    {
        return $this->clock()->set($instant);
    }

    /**
     * @deprecated use clock()->runUntilIdle() (decision 0003: one facade in every kit)
     * @return TestClock
     */
    public function runUntilIdle(\DateInterval|string|int|null $limit = null): array
    {
        return $this->clock()->runUntilIdle($limit);
    }

    /**
     * Puts a scenario in force for this world's account only (an array, or YAML or JSON text); answers it.
     *
     * @param array<string, mixed>|string $scenario
     * @return array<string, mixed>
     */
    public function scenario(array|string $scenario): array
    {
        return $this->control->accountsSetScenario($this->apiKey, $scenario);
    }

    /**
     * Puts one of the emulator's bundled scenarios (`happy-path`, `flaky-network`, …) in force for this world's account.
     *
     * @return array<string, mixed>
     */
    public function useBundledScenario(string $name): array
    {
        return $this->control->accountsUseBundledScenario($this->apiKey, $name);
    }

    /**
     * @deprecated use scenario() (decision 0003: one facade in every kit)
     * @param array<string, mixed>|string $scenario
     * @return array<string, mixed>
     */
    public function useScenario(array|string $scenario): array
    {
        return $this->scenario($scenario);
    }

    /** Waits, on this world's clock, until a message reaches a status (or `deleted`); answers the message then. */
    public function waitFor(string $messageId, string $status, \DateInterval|string|int|null $within = null): array
    {
        // How far the world's clock may move before the wait fails: the contract's default unless the test says.
        $body = ['status' => $status, 'within' => Schedule::duration($within ?? Settings::WAIT_WITHIN)];
        return $this->control->messagesWait($messageId, $body)['message'];
    }

    /** This world's messages as the control API shows them, filtered by status, recipient or client reference. */
    public function messages(array $filter = []): array
    {
        return $this->control->messagesList(['account' => $this->apiKey, 'environment' => $this->environment] + $filter)['items'];
    }

    /**
     * This world's message sent with a client reference (the API's `client_reference`), the newest if several were;
     * null when none was.
     *
     * @return ControlMessage|null
     */
    public function messageByReference(string $clientReference): ?array
    {
        return $this->messages(['clientReference' => $clientReference])[0] ?? null;
    }

    /**
     * Every webhook of this world, oldest first: the kit's copy of each delivery, with its payload, every try, and
     * the app's answer to each (`attempts[].status`). Waits first until the tries under way have ended.
     */
    public function webhooks(?string $messageId = null, ?string $state = null): array
    {
        $this->control->webhooksSettled(['account' => $this->apiKey]);
        $items = [];
        for ($page = 1; ; $page++) {
            $answer = $this->control->webhooksList(array_filter([
                'account' => $this->apiKey,
                'environment' => $this->environment,
                'message' => $messageId,
                'state' => $state,
                'page' => $page,
                'limit' => 100,
            ], static fn ($value) => $value !== null));
            array_push($items, ...$answer['items']);
            if ($page * 100 >= $answer['total']) {
                return $items;
            }
        }
    }

    /**
     * Asserts that this world sent a message to `$to` (whose text contains `$text`, when given), failing with what it
     * did send; answers the message.
     *
     * @return ControlMessage
     */
    public function assertSent(string $to, ?string $text = null): array
    {
        $messages = $this->messages();
        foreach ($messages as $message) {
            if (in_array($to, $message['recipient'], true) && ($text === null || str_contains($message['message'], $text))) {
                Assert::assertContains($to, $message['recipient']);
                return $message;
            }
        }
        $sent = array_map(static fn (array $message) => implode(',', $message['recipient']) . ': ' . json_encode($message['message']) . " ({$message['status']})", $messages);
        Assert::fail("expected a message to $to" . ($text === null ? '' : " containing \"$text\"") . '; the world sent ' . ($sent === [] ? 'none' : implode('; ', $sent)));
    }

    /**
     * Asserts that a delivery notification with `$status` was made for a message (whatever the app answered), failing
     * with the ones that were; answers the event.
     *
     * @return WebhookEvent
     */
    public function assertWebhook(string $messageId, string $status): array
    {
        $events = array_values(array_filter($this->webhooks($messageId), static fn (array $event) => $event['kind'] === 'delivery'));
        foreach ($events as $event) {
            if (($event['payload']['status'] ?? null) === $status) {
                Assert::assertSame($status, $event['payload']['status']);
                return $event;
            }
        }
        $seen = array_map(static fn (array $event) => ($event['payload']['status'] ?? '?') . ' (tries answered ' . implode(', ', array_map(static fn (array $try) => $try['status'] ?? $try['error'] ?? '?', $event['attempts'])) . ')', $events);
        Assert::fail("expected a $status webhook for $messageId; the world's webhooks: " . ($seen === [] ? 'none' : implode('; ', $seen)));
    }

    /**
     * The emulator's record of this world's webhooks (every event with its tries and the app's answers), filtered by
     * `message` or `state`, oldest first.
     *
     * @param array{message?: string, state?: string} $filter
     * @return list<WebhookEvent>
     */
    public function webhookLog(array $filter = []): array
    {
        return $this->webhooks($filter['message'] ?? null, $filter['state'] ?? null);
    }

    /** The payloads of this world's delivery notifications, in the order they were made. */
    public function deliveries(?string $messageId = null): array
    {
        $events = array_filter($this->webhooks($messageId), static fn (array $event) => $event['kind'] === 'delivery');
        return array_values(array_map(static fn (array $event) => $event['payload'], $events));
    }

    /** Injects an inbound reply to a sent message, as a recipient's phone would send it. */
    public function reply(string $messageId, string $text, ?string $from = null): array
    {
        return $this->control->repliesInject($messageId, array_filter(['text' => $text, 'from' => $from], static fn ($value) => $value !== null));
    }

    /** This world's timeline (every request, status change, webhook try and reply, with times) as an HTML page. */
    public function timelineHtml(): string
    {
        return $this->control->timelineHtml($this->apiKey);
    }

    /**
     * Opts a number out for this world's account (as a STOP reply would), in its environment unless given.
     *
     * @return OptOut
     */
    public function optOut(string $number, ?string $environment = null): array
    {
        return $this->control->optOutsAdd($number, ['account' => $this->apiKey, 'environment' => $environment ?? $this->environment]);
    }

    /** This world's balance in credits, in its environment unless given. */
    public function balance(?string $environment = null): int
    {
        return $this->control->accountsGet($this->apiKey)[$environment ?? $this->environment]['balance'];
    }

    /**
     * What this world spent, both environments: its credits, its messages and the five costliest, each explained in a
     * line (`top[].line`), and the whole as a failure shows it (`summary`).
     *
     * @return Spend
     */
    public function spend(): array
    {
        return $this->control->accountsSpend($this->apiKey);
    }

    /**
     * Asserts that this world spent at most `$credits` on the messages it sent, failing with the emulator's summary (its
     * top spenders, each with why it cost that); answers the spend.
     *
     * @return Spend
     */
    public function assertCostAtMost(int $credits): array
    {
        $spend = $this->spend();
        if ($spend['credits'] > $credits) {
            Assert::fail('expected this world to cost at most ' . Plural::count($credits, 'credit') . "; it {$spend['summary']}");
        }
        Assert::assertLessThanOrEqual($credits, $spend['credits']);
        return $spend;
    }

    /**
     * Sends this world's webhooks to the app's own handler from now on (attachable after the world exists, as an app
     * built from the world's key and URL needs); the emulator's log keeps the kit's copy either way.
     *
     * @return Account
     */
    public function forwardTo(string $url): array
    {
        return $this->control->accountsUpdate($this->apiKey, [$this->environment => ['webhookUrl' => $url]]);
    }

    /**
     * Runs the emulator's receiver check against a webhook receiver (`receiver` is `$url`; `$options` as the control
     * API's receiverCheck takes them: state, receiverTimeout, only, skip, seed, at, signingSecret).
     *
     * @param array<string, mixed> $options
     * @return ReceiverReport
     */
    public function checkReceiver(string $url, array $options = []): array
    {
        return $this->control->receiverCheck(['receiver' => $url] + $options);
    }

    /** Ends the world: deletes its clock, account, messages, webhooks and journal entries. */
    public function close(): void
    {
        $this->control->clocksDelete($this->clockId);
    }

    /** @deprecated use close() (decision 0003: one facade in every kit) */
    public function delete(): void
    {
        $this->close();
    }
}
