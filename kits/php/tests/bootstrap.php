<?php

// The kit's own tests load its classes straight from src/ (a project that installs the package uses Composer's autoload).
spl_autoload_register(static function (string $class): void {
    $prefix = 'SmsEmulator\\PhpUnit\\';
    if (str_starts_with($class, $prefix)) {
        $file = __DIR__ . '/../src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
