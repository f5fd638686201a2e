import { EKS_VERSIONS, KUBECTL_IMAGE_REPOSITORY, KUBECTL_IMAGE_TAGS, kubectlImage } from '../../lib/model/versions';

describe('kubectl image per EKS version', () => {
  test.each(EKS_VERSIONS.map((v) => [v]))('GIVEN EKS %s WHEN its kubectl image is looked up THEN it is a patch tag of the same minor (kubectl supports one minor of skew)', (version) => {
    expect(KUBECTL_IMAGE_TAGS[version]).toMatch(new RegExp(`^v${version.replace('.', '\\.')}\\.\\d+$`));
    expect(kubectlImage(version)).toBe(`registry.k8s.io/kubectl:${KUBECTL_IMAGE_TAGS[version]}`);
  });

  test('GIVEN the table WHEN read THEN it has exactly the supported EKS versions, from the upstream registry', () => {
    expect(Object.keys(KUBECTL_IMAGE_TAGS).sort()).toEqual([...EKS_VERSIONS].sort());
    expect(KUBECTL_IMAGE_REPOSITORY).toBe('registry.k8s.io/kubectl');
  });
});
