<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/**
 * The emulator's control API (`/_emulator`): every operation of the kit contract as a method (ControlOperations,
 * generated), answers as decoded JSON arrays, refusals as ControlException with the catalogued code.
 */
final class Control
{
    use ControlOperations;

    public function __construct(public readonly string $origin, private readonly ?string $token = null)
    {
    }

    /**
     * Calls one operation by its contract id: path parameters in the path's order, a body (an array as JSON, or YAML or
     * JSON text where the operation takes text) and a query.
     *
     * @param list<string> $params
     * @param array<string, mixed>|string|null $body
     * @param array<string, mixed> $query
     */
    public function operation(string $id, array $params = [], array|string|null $body = null, array $query = []): mixed
    {
        [$method, $path] = self::OPERATIONS[$id] ?? throw new \InvalidArgumentException(Settings::ERROR_PREFIX . "no control operation $id");
        $path = preg_replace_callback('/\{[^}]+\}/', static function () use (&$params): string {
            return rawurlencode((string) array_shift($params));
        }, $path);
        $headers = ['Accept' => 'application/json'];
        if ($this->token !== null) {
            $headers['Authorization'] = "Bearer {$this->token}";
        }
        $text = null;
        if (is_string($body)) {
            $text = $body;
            $headers['Content-Type'] = 'text/plain';
        } elseif ($body !== null) {
            $text = json_encode($body === [] ? new \stdClass() : $body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES);
            $headers['Content-Type'] = 'application/json';
        }
        $query = array_filter($query, static fn ($value) => $value !== null);
        $url = $this->origin . '/_emulator' . $path . ($query === [] ? '' : '?' . http_build_query($query, '', '&', PHP_QUERY_RFC3986));
        $answer = Http::request($method, $url, $headers, $text);
        $decoded = $answer['body'] === '' ? null : json_decode($answer['body'], true);
        if ($answer['status'] >= 300) {
            $error = is_array($decoded) ? ($decoded['error'] ?? $decoded) : [];
            throw new ControlException(
                $answer['status'],
                (string) ($error['message'] ?? 'HTTP_' . $answer['status']),
                (string) ($error['description'] ?? substr($answer['body'], 0, 300)),
            );
        }
        return $decoded;
    }

    /** GET `/_emulator/report` for an account: its timeline as an HTML page (what a failing test writes out). */
    public function timelineHtml(string $account): string
    {
        $headers = $this->token === null ? [] : ['Authorization' => "Bearer {$this->token}"];
        $url = $this->origin . '/_emulator/report?' . http_build_query(['account' => $account], '', '&', PHP_QUERY_RFC3986);
        return Http::request('GET', $url, $headers)['body'];
    }
}
