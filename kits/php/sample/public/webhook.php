<?php
// The shop's webhook handler: keeps the latest status of each message (in STATUS_FILE), never letting an older one
// overwrite a final one; answers 200 once it has.
$payload = json_decode((string) file_get_contents('php://input'), true);
$file = getenv('STATUS_FILE');
$statuses = is_file($file) ? json_decode((string) file_get_contents($file), true) : [];
$final = ['delivered', 'undelivered', 'expired', 'blist', 'noroute', 'failed'];
$known = $statuses[$payload['id']] ?? null;
if (!in_array($known, $final, true)) {
    $statuses[$payload['id']] = $payload['status'];
}
file_put_contents($file, json_encode($statuses), LOCK_EX);
http_response_code(200);
return true;
