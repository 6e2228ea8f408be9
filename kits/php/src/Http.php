<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/** One HTTP exchange with PHP's own streams (no extension needed): a status, the headers and the body. */
final class Http
{
    /**
     * @param array<string, string> $headers
     * @return array{status: int, headers: array<string, string>, body: string}
     */
    public static function request(string $method, string $url, array $headers = [], ?string $body = null, ?float $timeout = null): array
    {
        // One control (or API) request may take the contract's control timeout, unless the caller says otherwise.
        $timeout ??= Settings::durationMs('controlTimeout', Settings::CONTROL_TIMEOUT) / 1000;
        $lines = ['Connection: close'];
        foreach ($headers as $name => $value) {
            $lines[] = "$name: $value";
        }
        $context = stream_context_create(['http' => [
            'method' => $method,
            'header' => implode("\r\n", $lines),
            'content' => $body ?? '',
            'ignore_errors' => true,
            'timeout' => $timeout,
            'protocol_version' => 1.1,
            'follow_location' => 0,
        ]]);
        // Each call opens its own connection (PHP's streams keep none alive), so no call can meet one the emulator
        // closed while idle, and none is sent twice: a transport failure is the answer, as an app would see it.
        $http_response_header = [];
        $answer = @file_get_contents($url, false, $context);
        if ($answer === false && $http_response_header === []) {
            $error = error_get_last()['message'] ?? 'no answer';
            // PHP's own message quotes the URL too.
            throw new TransportException(self::shownUrl(Settings::ERROR_PREFIX . "no answer from $method $url: $error"));
        }
        $status = 0;
        $answerHeaders = [];
        foreach ($http_response_header as $line) {
            if (preg_match('#^HTTP/\S+\s+(\d{3})#', $line, $match) === 1) {
                $status = (int) $match[1];
                $answerHeaders = [];
            } elseif (str_contains($line, ':')) {
                [$name, $value] = explode(':', $line, 2);
                $answerHeaders[strtolower(trim($name))] = trim($value);
            }
        }
        return ['status' => $status, 'headers' => $answerHeaders, 'body' => (string) $answer];
    }

    /**
     * `$text` with the password of every URL in it masked as `***`, the user name kept: the emulator's rule for what is
     * shown (docs/security.md#credentials-in-what-it-shows), for the kit's own printed lines and errors. The userinfo
     * ends at the authority's last `@`, the password starts after its first `:`.
     */
    public static function shownUrl(string $text): string
    {
        if (!str_contains($text, '@')) {
            return $text;
        }
        return (string) preg_replace_callback('~\b([a-z][a-z0-9+.-]*:[/\\\\]{2})([^\s/\\\\?#"<>`{}|^]*)~i', static function (array $found): string {
            [$whole, $scheme, $authority] = $found;
            $at = strrpos($authority, '@');
            $colon = strpos($authority, ':');
            return $at === false || $colon === false || $colon >= $at - 1
                ? $whole
                : $scheme . substr($authority, 0, $colon + 1) . '***' . substr($authority, $at);
        }, $text);
    }
}
