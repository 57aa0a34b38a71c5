import Testing
@testable import AppleFormats

/// Model codes shown by their marketing names.
@Suite struct DeviceModelNameTests {
    @Test func recentModelsHaveTheirMarketingNames() {
        let expected = [
            "iPhone15,2": "iPhone 14 Pro", "iPhone14,6": "iPhone SE (3rd generation)", "iPhone16,1": "iPhone 15 Pro",
            "iPhone17,5": "iPhone 16e", "iPhone18,4": "iPhone Air", "iPhone11,8": "iPhone XR",
            "iPad13,18": "iPad (10th generation)", "iPad14,9": "iPad Air 11-inch (M2)", "iPad16,3": "iPad Pro 11-inch (M4)",
            "iPad16,1": "iPad mini (A17 Pro)", "iPad8,12": "iPad Pro 12.9-inch (4th generation)", "iPod9,1": "iPod touch (7th generation)",
            "Watch6,18": "Apple Watch Ultra", "Watch7,3": "Apple Watch Series 9", "AppleTV14,1": "Apple TV 4K (3rd generation)",
            "RealityDevice14,1": "Apple Vision Pro",
        ]
        for (code, name) in expected {
            #expect(DeviceModelName.marketingName(forModelCode: code) == name, "\(code)")
            #expect(DeviceModelName.displayName(forModelCode: code) == name)
        }
    }

    @Test func anUnknownCodeIsShownAsItIs() {
        for code in ["iPhone99,9", "iPhone1,1", "Watch", "", "iphone15,2", "Mac14,2"] {
            #expect(DeviceModelName.marketingName(forModelCode: code) == nil, "\(code)")
            #expect(DeviceModelName.displayName(forModelCode: code) == code)
        }
    }

    @Test func everyCodeIsAModelCodeOfTheFamilyItsNameSays() {
        #expect(DeviceModelName.knownModels.count > 150)
        let prefixes: [(String, DeviceFamily)] = [("iPhone", .iphone), ("iPad", .ipad), ("iPod", .ipod), ("Apple Watch", .watch),
                                                   ("Apple TV", .tv), ("Apple Vision", .vision)]
        for (code, name) in DeviceModelName.knownModels {
            let family = DeviceFamily(modelCode: code)
            #expect(family != nil, "\(code) parses as a model code")
            #expect(prefixes.first { name.hasPrefix($0.0) }?.1 == family, "\(code) is \(name)")
        }
    }
}
