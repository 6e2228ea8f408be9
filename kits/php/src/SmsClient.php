<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/**
 * The SMS API as an app calls it, signed with the account's secret: send (now or scheduled), list, get, edit, delete,
 * balance. Answers are the decoded JSON; an error answer is an ApiException with the catalogued code.
 */
final class SmsClient
{
    private readonly string $root;

    public function __construct(
        string $origin,
        private readonly string $apiKey,
        private readonly string $signingSecret,
        string $environment = 'live',
        private readonly string $offset = '+02:00',
    ) {
        $api = Contract::get()['paths']['api'][$environment]
            ?? throw new \InvalidArgumentException(Settings::ERROR_PREFIX . "no environment $environment (live or sandbox)");
        $this->root = $origin . $api . '/messages';
    }

    /**
     * Sends a message, or with `$schedule` schedules it (a DateTimeInterface is written in the API's offset, rounded up).
     *
     * @param string|list<string> $recipient
     */
    public function send(string|array $recipient, string $message, ?string $clientReference = null, \DateTimeInterface|string|null $schedule = null): array
    {
        $body = ['recipient' => (array) $recipient, 'message' => $message];
        if ($clientReference !== null) {
            $body['client_reference'] = $clientReference;
        }
        if ($schedule !== null) {
            $body['schedule'] = is_string($schedule) ? $schedule : Schedule::format($schedule, $this->offset);
        }
        return $this->call('POST', '', $body);
    }

    /** A page of messages, newest first: recipient, status, search, page, limit. */
    public function list(array $query = []): array
    {
        $query = array_filter($query, static fn ($value) => $value !== null);
        return $this->call('GET', $query === [] ? '' : '?' . http_build_query($query, '', '&', PHP_QUERY_RFC3986));
    }

    public function get(string $id): array
    {
        return $this->call('GET', '/' . rawurlencode($id));
    }

    /** Edits a scheduled message: only the fields given change. */
    public function edit(string $id, array $fields): array
    {
        if (isset($fields['schedule']) && $fields['schedule'] instanceof \DateTimeInterface) {
            $fields['schedule'] = Schedule::format($fields['schedule'], $this->offset);
        }
        return $this->call('PATCH', '/' . rawurlencode($id), $fields);
    }

    public function delete(string $id): array
    {
        return $this->call('DELETE', '/' . rawurlencode($id));
    }

    public function balance(): int
    {
        return (int) $this->call('GET', '/balance')['balance'];
    }

    private function call(string $method, string $path, ?array $body = null): array
    {
        $headers = ['Authorization' => 'Basic ' . base64_encode($this->apiKey . ':'), 'Accept' => 'application/json'];
        $text = null;
        if ($body !== null) {
            $headers['Content-Type'] = 'application/json';
            $headers['Signature'] = Signing::sign($body, $this->signingSecret);
            $text = json_encode($body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
        }
        try {
            $answer = Http::request($method, $this->root . $path, $headers, $text);
        } catch (TransportException $failure) {
            throw new ApiException(0, 'NETWORK_ERROR', $failure->getMessage());
        }
        $decoded = json_decode($answer['body'], true);
        $error = is_array($decoded) ? ($decoded['error'] ?? $decoded) : null;
        if ($answer['status'] >= 200 && $answer['status'] < 300 && is_array($decoded)) {
            return $decoded;
        }
        $retryAfter = $answer['headers']['retry-after'] ?? null;
        throw new ApiException(
            $answer['status'],
            (string) ($error['message'] ?? 'HTTP_' . $answer['status']),
            (string) ($error['description'] ?? substr($answer['body'], 0, 300)),
            $retryAfter !== null && ctype_digit($retryAfter) ? (int) $retryAfter : null,
        );
    }
}
