package io.schedext.extender.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.schedext.extender.WireCodec;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The filter reply's reason maps encode exactly as Jackson's own map serializer would. */
class ReasonMapSerializerTest {

  private static final WireCodec CODEC = new WireCodec(1 << 20);

  @Test
  void repeatedDistinctEscapedAndNullReasonsEncodeAsAPlainMap() throws Exception {
    String shared = "node(s) didn't match Pod's node affinity/selector";
    Map<String, String> failed = new LinkedHashMap<>();
    failed.put("a", shared);
    failed.put("b", shared);
    failed.put("c", new String(shared));
    failed.put("d", "node(s) had untolerated taint {dedicated: \"batch\"}");
    failed.put("e", null);
    failed.put("f\u00e9", shared);
    ExtenderFilterResult r = new ExtenderFilterResult(null, List.of("x"), failed, Map.of(), "");

    String got = new String(CODEC.encode(r), StandardCharsets.UTF_8);

    String plainFailed = new ObjectMapper().writeValueAsString(failed);
    assertThat(got)
        .isEqualTo(
            "{\"Nodes\":null,\"NodeNames\":[\"x\"],\"FailedNodes\":"
                + plainFailed
                + ",\"FailedAndUnresolvableNodes\":{},\"Error\":\"\"}");
    assertThat(CODEC.mapper().readTree(got).get("FailedNodes").get("d").asText())
        .isEqualTo("node(s) had untolerated taint {dedicated: \"batch\"}");
  }

  @Test
  void nullMapsStayNull() {
    String got =
        new String(
            CODEC.encode(new ExtenderFilterResult(null, null, null, null, "boom")),
            StandardCharsets.UTF_8);
    assertThat(got)
        .isEqualTo(
            "{\"Nodes\":null,\"NodeNames\":null,\"FailedNodes\":null,"
                + "\"FailedAndUnresolvableNodes\":null,\"Error\":\"boom\"}");
  }
}
