# frozen_string_literal: true

$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "sms_emulator_kit/rspec"
require_relative "support/app_server"
