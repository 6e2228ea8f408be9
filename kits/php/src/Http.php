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
            throw new TransportException(Settings::ERROR_PREFIX . "no answer from $method $url: $error");
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
}
