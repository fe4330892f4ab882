package io.schedext.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Quantities decoded from their text are what fabric8's own deserializer makes of every form. */
class QuantityTextTest {

  private static final ObjectMapper FABRIC8 = new ObjectMapper();
  private static final ObjectMapper OURS = QuantityText.useIn(new ObjectMapper());
  private static final TypeReference<Map<String, Quantity>> MAP = new TypeReference<>() {};

  /** A JSON value of a quantity, and why it is a case. */
  record Case(String why, String json) {}

  @Test
  void everyFormDecodesAsFabric8DecodesIt() throws Exception {
    List<Case> cases =
        List.of(
            new Case("millicores", "\"100m\""),
            new Case("binary suffix", "\"1Gi\""),
            new Case("decimal exponent", "\"1e3\""),
            new Case("zero", "\"0\""),
            new Case("a huge amount", "\"9223372036854775807999\""),
            new Case("a fraction", "\"0.5\""),
            new Case("surrounding spaces", "\" 5 \""),
            new Case("an integer number", "7"),
            new Case("a float number", "1.5"),
            new Case("a float in exponent form", "1e3"),
            new Case("a negative number", "-2"),
            new Case("a big integer number", "123456789012345678901234567890"),
            new Case("amount and format", "{\"amount\":\"1\",\"format\":\"Gi\"}"),
            new Case("amount only", "{\"amount\":\"5\"}"),
            new Case("a boolean", "true"),
            new Case("null", "null"));
    for (Case c : cases) {
      String json = "{\"q\":" + c.json() + "}";
      Quantity theirs = FABRIC8.readValue(json, MAP).get("q");
      Quantity ours = OURS.readValue(json, MAP).get("q");
      // Field by field: Quantity.equals parses the amount, and throws for the malformed ones.
      assertThat(ours == null).as(c.why()).isEqualTo(theirs == null);
      if (theirs != null) {
        assertThat(ours.getAmount()).as(c.why()).isEqualTo(theirs.getAmount());
        assertThat(ours.getFormat()).as(c.why()).isEqualTo(theirs.getFormat());
        assertThat(ours.getAdditionalProperties())
            .as(c.why())
            .isEqualTo(theirs.getAdditionalProperties());
      }
    }
  }

  @Test
  void aPodsQuantitiesAreFabric8s() throws Exception {
    String pod =
        "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"overhead\":{\"cpu\":\"10m\"},\"containers\":[{\"name\":\"c\","
            + "\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":1073741824},"
            + "\"limits\":{\"memory\":\"2Gi\"}}}]}}";
    assertThat(OURS.readValue(pod, Pod.class)).isEqualTo(FABRIC8.readValue(pod, Pod.class));

    // A malformed amount is kept as text by both, for the reader to refuse.
    String bad = "{\"spec\":{\"overhead\":{\"cpu\":\"lots\"}}}";
    Quantity theirs = FABRIC8.readValue(bad, Pod.class).getSpec().getOverhead().get("cpu");
    Quantity ours = OURS.readValue(bad, Pod.class).getSpec().getOverhead().get("cpu");
    assertThat(ours.getAmount()).isEqualTo(theirs.getAmount());
    assertThat(ours.getFormat()).isEqualTo(theirs.getFormat());
  }
}
