<?php

declare(strict_types=1);

namespace Shop;

/** Texts a delivery notice through the SMS API, signed with the shop's own secret, and answers the message id. */
final class Notifier
{
    public function __construct(private readonly string $baseUrl, private readonly string $apiKey, private readonly string $secret)
    {
    }

    public function parcelShipped(string $phone, string $order): string
    {
        $fields = ['recipient' => [$phone], 'message' => "Order $order is on its way", 'client_reference' => $order];
        $canonical = "client_reference=" . rawurlencode($order) . "&message=" . rawurlencode($fields['message']) . "&recipient[]=" . rawurlencode($phone);
        $context = stream_context_create(['http' => [
            'method' => 'POST',
            'header' => implode("\r\n", [
                'Authorization: Basic ' . base64_encode($this->apiKey . ':'),
                'Content-Type: application/json',
                'Signature: ' . hash_hmac('sha256', $canonical, $this->secret),
            ]),
            'content' => json_encode($fields),
            'ignore_errors' => true,
        ]]);
        $answer = json_decode((string) file_get_contents("{$this->baseUrl}/v1/messages", false, $context), true);
        return $answer['id'] ?? throw new \RuntimeException('the SMS API refused the notice: ' . json_encode($answer));
    }
}
