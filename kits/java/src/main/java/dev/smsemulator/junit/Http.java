package dev.smsemulator.junit;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * The kit's one HTTP client, and the two halves of its keep-alive agreement with the emulator, which closes a
 * connection idle for 5 s while the JDK's client keeps one for 1,200 s and does not retry a POST: a request sent on a
 * connection the emulator is closing at that moment fails with "header parser received no bytes" or "Broken pipe".
 *
 * <ol>
 *   <li>The JDK's pool is told to drop idle connections after {@value #KEEP_ALIVE_SECONDS} s, below the emulator's 5 s:
 *       {@code jdk.httpclient.keepalive.timeout} is read once, when the JVM's first HttpClient is made, so it is set
 *       here before the kit makes its own, and only when the run did not set it. It holds for every HttpClient of the
 *       JVM, the app's own calls to the emulator included; when the JVM made one before the kit, it is too late for it.
 *   <li>So a control request that still fails before any answer, other than a refused connection or a timeout, is sent
 *       once more ({@link #sendRetryingOnce}): it went out on a connection closed under it and the emulator never read
 *       it. The SMS API client ({@link SmsClient}) does not retry, as the app's own client would not: a network fault a
 *       scenario injects must reach the test.
 * </ol>
 */
final class Http {
  /** Seconds the JDK's pool keeps an idle connection, when the run did not choose: below the emulator's 5 s. */
  static final int KEEP_ALIVE_SECONDS = 3;

  /** A scheme, {@code //}, then the authority up to the first {@code /}, {@code ?}, {@code #}, white space or a character no URL holds unencoded. */
  private static final java.util.regex.Pattern AUTHORITY =
      java.util.regex.Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*:[/\\\\]{2})([^\\s/\\\\?#\"<>`{}|^]*)");

  /**
   * {@code text} with the password of every URL in it masked as {@code ***}, the user name kept: the emulator's rule for
   * what is shown (docs/security.md#credentials-in-what-it-shows), for the kit's own printed lines and errors. The
   * userinfo ends at the authority's last {@code @}, the password starts after its first {@code :}.
   */
  static String shownUrl(String text) {
    if (text == null || !text.contains("@")) return text;
    return AUTHORITY.matcher(text).replaceAll(found -> {
      String scheme = found.group(1);
      String authority = found.group(2);
      int at = authority.lastIndexOf('@');
      int colon = authority.indexOf(':');
      String shown = at < 0 || colon < 0 || colon >= at - 1
          ? scheme + authority
          : scheme + authority.substring(0, colon + 1) + "***" + authority.substring(at);
      return java.util.regex.Matcher.quoteReplacement(shown);
    });
  }

  static final String KEEP_ALIVE_PROPERTY = "jdk.httpclient.keepalive.timeout";

  static final HttpClient CLIENT;

  static {
    if (System.getProperty(KEEP_ALIVE_PROPERTY) == null) System.setProperty(KEEP_ALIVE_PROPERTY, Integer.toString(KEEP_ALIVE_SECONDS));
    CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).version(HttpClient.Version.HTTP_1_1).build();
  }

  private Http() {}

  /** Whether a failure means the request got no answer on a connection that was open, so sending it again is safe. */
  static boolean unanswered(IOException failure) {
    return !(failure instanceof ConnectException) && !(failure instanceof HttpTimeoutException);
  }

  /** Sends once, and once more when the first try got no answer on a connection closed under it. */
  static <T> HttpResponse<T> sendRetryingOnce(HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> body)
      throws IOException, InterruptedException {
    try {
      return client.send(request, body);
    } catch (IOException failure) {
      if (!unanswered(failure)) throw failure;
      try {
        return client.send(request, body);
      } catch (IOException again) {
        again.addSuppressed(failure);
        throw again;
      }
    }
  }
}
