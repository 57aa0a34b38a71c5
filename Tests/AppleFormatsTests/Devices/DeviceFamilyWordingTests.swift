import Testing
@testable import AppleFormats

/// Family and profile names read right in sentences: "an iPhone", "a Mac", "Apple Watches".
@Suite struct DeviceFamilyWordingTests {
    @Test func everyFamilyHasItsArticleAndPlural() {
        let expected: [DeviceFamily: (String, String)] = [
            .iphone: ("an iPhone", "iPhones"), .ipad: ("an iPad", "iPads"), .ipod: ("an iPod touch", "iPod touch devices"),
            .watch: ("an Apple Watch", "Apple Watches"), .tv: ("an Apple TV", "Apple TVs"), .mac: ("a Mac", "Macs"),
            .vision: ("an Apple Vision Pro", "Apple Vision Pro devices"),
        ]
        #expect(Set(expected.keys) == Set(DeviceFamily.allCases))
        for family in DeviceFamily.allCases {
            #expect(family.withArticle == expected[family]?.0)
            #expect(family.pluralName == expected[family]?.1)
        }
    }

    @Test func everyProfileTypeHasItsArticle() {
        #expect(ProfileType.adHoc.withArticle == "an ad hoc")
        #expect(ProfileType.development.withArticle == "a development")
        #expect(ProfileType.appStore.withArticle == "an App Store")
        #expect(ProfileType.enterprise.withArticle == "an enterprise")
    }
}
