<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/** Request signing as the API specifies it: the canonical field string and its HMAC-SHA256 (test-vectors/signing.json). */
final class Signing
{
    /**
     * RFC 3986 percent-encoding: only A-Z a-z 0-9 - . _ ~ stay, a space is %20. rawurlencode does exactly this;
     * urlencode and http_build_query's default would write + for a space and sign another string than the API.
     */
    public static function encode(string $value): string
    {
        return rawurlencode($value);
    }

    /** Fields sorted by name, blank values dropped, name[]=value per list item in order, encoded, joined with &. */
    public static function canonicalString(array $fields): string
    {
        ksort($fields, SORT_STRING);
        $pairs = [];
        foreach ($fields as $name => $value) {
            $key = self::encode((string) $name);
            if (is_array($value) && array_is_list($value)) {
                foreach ($value as $item) {
                    $text = self::fieldText($item);
                    if ($text !== null) {
                        $pairs[] = "{$key}[]=" . self::encode($text);
                    }
                }
                continue;
            }
            $text = self::fieldText($value);
            if ($text !== null) {
                $pairs[] = "$key=" . self::encode($text);
            }
        }
        return implode('&', $pairs);
    }

    /** The Signature header of a request body: lowercase hex HMAC-SHA256 of its canonical string. */
    public static function sign(array $fields, string $secret): string
    {
        return hash_hmac('sha256', self::canonicalString($fields), $secret);
    }

    /** A value as the API reads it for signing; null for a blank one, which is left out. */
    private static function fieldText(mixed $value): ?string
    {
        $text = match (true) {
            $value === null => '',
            is_bool($value) => $value ? 'true' : 'false',
            is_array($value) => json_encode($value, JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES),
            default => (string) $value,
        };
        return $text === '' ? null : $text;
    }
}
