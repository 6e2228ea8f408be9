<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/**
 * One test's world: an account of its own on a test clock of its own (its own signing secret, start time, balances,
 * environment, scopes and scenario), whose webhooks go to the app's own handler. The emulator's webhook log is the
 * kit's copy of every delivery (payload, every try and the app's answer), so assertions and waits see each one while
 * the app answers for real. Worlds never see each other: tests may run in parallel against one emulator.
 *
 * @phpstan-import-type ControlMessage from Answers
 */
final class World
{
    public readonly SmsClient $sms;
    public readonly string $apiKey;
    public readonly string $signingSecret;
    public readonly string $clockId;

    private function __construct(public readonly Control $control, array $made, public readonly string $environment, string $offset)
    {
        $this->apiKey = $made['account']['apiKey'];
        $this->signingSecret = $made['account']['signingSecret'];
        $this->clockId = $made['clock']['id'];
        $this->sms = new SmsClient($control->origin, $this->apiKey, $this->signingSecret, $environment, $offset);
    }

    /**
     * Makes a world in one call. `$webhookUrl` is the app's own handler (its deliveries go there, retried as the spec
     * says when it fails); without one, deliveries are logged but posted nowhere. `$startTime` and `$scenario` as the
     * control API takes them (ISO text or a DateTimeInterface; an array, or YAML or JSON text).
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
    ): self {
        $account = array_filter([
            'signingSecret' => $signingSecret,
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

    /** Moves this world's clock forward ("15m", milliseconds or a DateInterval); answers after the webhooks it caused were tried. */
    public function advance(\DateInterval|string|int $duration): array
    {
        return $this->control->clocksMove($this->clockId, ['advance' => Schedule::duration($duration)]);
    }

    /** Sets this world's clock to an instant (never backwards past queued events' order: they fire in time order). */
    public function setTime(\DateTimeInterface|string $instant): array
    {
        return $this->control->clocksMove($this->clockId, ['set' => Schedule::instant($instant)]);
    }

    /** Runs this world's clock until nothing is queued, or for at most `$limit` of its time (default 30 days). */
    public function runUntilIdle(\DateInterval|string|int|null $limit = null): array
    {
        $command = ['runUntilIdle' => true];
        if ($limit !== null) {
            $command['limit'] = Schedule::duration($limit);
        }
        return $this->control->clocksMove($this->clockId, $command);
    }

    /** This world's time now, as an instant. */
    public function now(): \DateTimeImmutable
    {
        return new \DateTimeImmutable($this->control->clocksGet($this->clockId)['time']);
    }

    /** Puts a scenario in force for this world's account only (an array, or YAML or JSON text). */
    public function useScenario(array|string $scenario): array
    {
        return $this->control->accountsSetScenario($this->apiKey, $scenario);
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
    public function webhooks(?string $messageId = null): array
    {
        $this->control->webhooksSettled(['account' => $this->apiKey]);
        $items = [];
        for ($page = 1; ; $page++) {
            $answer = $this->control->webhooksList(array_filter([
                'account' => $this->apiKey,
                'environment' => $this->environment,
                'message' => $messageId,
                'page' => $page,
                'limit' => 100,
            ], static fn ($value) => $value !== null));
            array_push($items, ...$answer['items']);
            if ($page * 100 >= $answer['total']) {
                return $items;
            }
        }
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

    /** Deletes the world: its clock, account, messages, webhooks and journal entries. */
    public function delete(): void
    {
        $this->control->clocksDelete($this->clockId);
    }
}
