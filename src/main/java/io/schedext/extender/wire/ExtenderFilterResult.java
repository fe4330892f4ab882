package io.schedext.extender.wire;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The filter reply: the nodes that fit, in the same field the request used, and why the others do
 * not.
 *
 * @param nodes fitting nodes when the request sent {@code Nodes}, else null
 * @param nodeNames fitting node names when the request sent {@code NodeNames}, else null
 * @param failedNodes node → reason for Unschedulable nodes (preemption may help)
 * @param failedAndUnresolvableNodes node → reason for nodes preemption cannot help
 * @param error a non-empty text fails the whole scheduling attempt
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"Nodes", "NodeNames", "FailedNodes", "FailedAndUnresolvableNodes", "Error"})
@JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
public record ExtenderFilterResult(
    @JsonProperty("Nodes") NodeItems nodes,
    @JsonProperty("NodeNames") List<String> nodeNames,
    @JsonProperty("FailedNodes") @JsonSerialize(using = ReasonMapSerializer.class)
        Map<String, String> failedNodes,
    @JsonProperty("FailedAndUnresolvableNodes") @JsonSerialize(using = ReasonMapSerializer.class)
        Map<String, String> failedAndUnresolvableNodes,
    @JsonProperty("Error") String error) {

  private static final byte[] NODES_NULL =
      "{\"Nodes\":null,\"NodeNames\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] FAILED = ",\"FailedNodes\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] UNRESOLVABLE =
      ",\"FailedAndUnresolvableNodes\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ERROR = ",\"Error\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

  /**
   * Appends this reply to {@code rb} as JSON, byte for byte what the mapper writes for it, when it
   * answers with node names (or none); false for a reply of node objects or a reason map with a
   * null key, which only the mapper writes (or refuses): {@code rb} may then hold part of the
   * reply.
   */
  public boolean writeTo(ReplyBuffer rb) {
    if (nodes != null) {
      return false;
    }
    rb.ascii(NODES_NULL);
    if (nodeNames == null) {
      rb.ascii(NULL);
    } else if (nodeNames instanceof NameArray names) {
      names.writeTo(rb);
    } else {
      rb.ascii('[');
      for (int i = 0; i < nodeNames.size(); i++) {
        if (i > 0) {
          rb.ascii(',');
        }
        stringOrNull(rb, nodeNames.get(i));
      }
      rb.ascii(']');
    }
    rb.ascii(FAILED);
    if (!reasons(rb, failedNodes)) {
      return false;
    }
    rb.ascii(UNRESOLVABLE);
    if (!reasons(rb, failedAndUnresolvableNodes)) {
      return false;
    }
    rb.ascii(ERROR);
    stringOrNull(rb, error);
    rb.ascii('}');
    return true;
  }

  /** A node → reason map as {@link ReasonMapSerializer} writes it; false at a null key. */
  private static boolean reasons(ReplyBuffer rb, Map<String, String> reasons) {
    if (reasons == null) {
      rb.ascii(NULL);
      return true;
    }
    rb.ascii('{');
    boolean first = true;
    // Reasons are written as the serializer writes them, from their encoding as a serialized string
    // (characters outside the BMP as UTF-8, where a plain string gets escapes), each run of equal
    // reasons encoded once.
    String last = null;
    byte[] lastQuoted = null;
    for (Map.Entry<String, String> e : reasons.entrySet()) {
      if (!first) {
        rb.ascii(',');
      }
      first = false;
      if (e.getKey() == null) {
        return false;
      }
      rb.string(e.getKey());
      rb.ascii(':');
      String reason = e.getValue();
      if (reason == null) {
        rb.ascii(NULL);
        continue;
      }
      if (reason != last && !reason.equals(last)) {
        last = reason;
        lastQuoted = JsonStringEncoder.getInstance().quoteAsUTF8(reason);
      }
      rb.string(reason, lastQuoted);
    }
    rb.ascii('}');
    return true;
  }

  private static void stringOrNull(ReplyBuffer rb, String s) {
    if (s == null) {
      rb.ascii(NULL);
    } else {
      rb.string(s);
    }
  }
}
